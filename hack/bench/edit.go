package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// The edit scenario is issue 22's command-line target: after a one-line
// edit to a leaf package, ctrllint's re-run must cost less than its cold
// run. The corpus entries analyse modules in the module cache, which
// nobody edits, so the scenario copies the entry's module out of the
// module cache into a scratch directory, where it is the main module, as
// in a user's checkout, and each round runs there: the floor, ctrllint
// cold (its result cache empty), warm (nothing changed), and edited (a
// line appended to -edit's file, a package-level declaration, then the
// same command again).

// stateEdited is ctrllint's re-run after the one-line edit.
const stateEdited = "edited"

// editTarget copies the module of the -edit entry and returns the target
// to measure there. The build environment keeps the copy off the network:
// its go.sum is the module's own and the module cache holds its
// requirements (the entry was materialised).
func (b *bench) editTarget(cfg *corpusConfig) (*targetResult, string, error) {
	name, file, ok := strings.Cut(b.o.edit, ":")
	if !ok || name == "" || file == "" {
		return nil, "", fmt.Errorf("-edit %q: want ENTRY:FILE (a file of the entry's module, relative to its root)", b.o.edit)
	}
	e, ok := cfg.entry(name)
	if !ok {
		return nil, "", fmt.Errorf("-edit: no entry %q in corpus.json", name)
	}
	if e.Module == "" {
		return nil, "", fmt.Errorf("-edit: entry %q is not a module of the module cache", name)
	}
	if err := materialise(e, b.o.corpusCache, b.ctrllint); err != nil {
		return nil, "", err
	}
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", e.Module)
	cmd.Dir = e.dir(b.o.corpusCache)
	out, err := cmd.Output()
	if err != nil {
		return nil, "", fmt.Errorf("-edit: finding %s in the module cache: %v", e.Module, err)
	}
	src := strings.TrimSpace(string(out))
	dst := filepath.Join(b.scratch, "edit-"+name)
	if err := copyTree(src, dst); err != nil {
		return nil, "", fmt.Errorf("-edit: copying %s: %v", src, err)
	}
	edited := filepath.Join(dst, filepath.FromSlash(file))
	if _, err := os.Stat(edited); err != nil {
		return nil, "", fmt.Errorf("-edit: %v", err)
	}
	t := &targetResult{Entry: name + " (a writable copy, " + file + " edited)", Dir: dst, Patterns: []string{"./..."}}
	if t.Size, err = measureSizeEnv(dst, t.Patterns, editEnv()); err != nil {
		return nil, "", err
	}
	return t, edited, nil
}

// editEnv is the environment of every command run in the copy.
func editEnv() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
}

// editRound measures one round of the edit scenario on t; n numbers the
// edits, so that each one is new content.
func (b *bench) editRound(t *targetResult, file string, n int, warmup bool) {
	env := editEnv()
	b.roundEnv(t, n, warmup, env, func(record func(tool, state string, cmd *exec.Cmd)) {
		orig, err := os.ReadFile(file)
		if err == nil {
			edited := fmt.Appendf(slices.Clip(orig), "\nvar ctrllintBenchEdit%d = %d\n", n, n)
			err = os.WriteFile(file, edited, 0o644)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: editing %s: %v\n", t.Entry, file, err)
			return
		}
		record(toolCtrllint, stateEdited, b.ctrllintCmd(env, t.Patterns))
		// The next round's floor and cold run start from the content
		// the go command has built, as every other target's do; each
		// round's edit is new content.
		if err := os.WriteFile(file, orig, 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: restoring %s: %v\n", t.Entry, file, err)
		}
	})
}

// copyTree copies the regular files and directories under src to dst,
// writable (the module cache's are read-only).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type().IsRegular():
			return copyFile(path, to)
		}
		return nil
	})
}

// editScenario measures the edit scenario: -rounds rounds, after a
// warm-up round when -warmup, of the floor and ctrllint only.
func (b *bench) editScenario(cfg *corpusConfig) (*targetResult, error) {
	t, file, err := b.editTarget(cfg)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "bench: edit: %d packages, %d lines in %s\n", t.Size.Packages, t.Size.Lines, t.Dir)
	o := *b.o
	o.tools = map[string]bool{"floor": true, "ctrllint": true}
	eb := *b
	eb.o = &o
	if o.warmup {
		eb.editRound(t, file, 0, true)
	}
	for r := 1; r <= o.rounds; r++ {
		eb.editRound(t, file, r, false)
	}
	return t, nil
}

// editMarkdown is the edit scenario's section of the report.
func editMarkdown(t *targetResult) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("\n## After a one-line edit\n\n")
	p("`%s` in %s, a copy of the module as the main module: %d packages, %d lines of non-test Go. ", strings.Join(t.Patterns, " "), t.Dir, t.Size.Packages, t.Size.Lines)
	p("**edited**: after ctrllint's warm run, a package-level declaration appended to the file, then the same command again: ")
	p("its result cache still holds every other package's results, and the go command's build cache everything but the edited package.\n\n")
	p("%s", t.table())
	cold, edited := t.find(toolCtrllint, stateCold), t.find(toolCtrllint, stateEdited)
	if cold != nil && edited != nil {
		x, c := edited.wall(), cold.wall()
		verdict := "met"
		if !(x < c) {
			verdict = "NOT met"
		}
		p("\nTarget: the re-run after a one-line edit costs less than a cold run (wall): %s, %s vs %s (%s).\n", verdict, seconds(x), seconds(c), ratio(x, c))
	}
	if notes := t.notes(true); notes != "" {
		p("\n%s", notes)
	}
	return b.String()
}
