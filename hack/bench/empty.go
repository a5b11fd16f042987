package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// The empty-cache scenario is issue 32's: a first run on a machine whose
// go build cache is empty (a CI runner, a fresh clone), where the go
// command would compile every dependency for its export data. Each tool
// runs once per round with a go build cache of its own, new and empty,
// deleted afterwards:
//
//   - the source floor: go/packages type-checking every package of the
//     graph from source (the floor's -source), the least any type-checking
//     tool can do without a build;
//   - ctrllint, its cache directory empty (results and export data);
//   - ctrllint again, the build cache and export data the first run left,
//     results removed: the second run on that machine, after an edit;
//   - go vet and staticcheck (their own caches empty), which build
//     export data with the go command.

const (
	stateFirst  = "first run"
	stateSecond = "second run"
	toolSource  = "source floor"
)

// emptyFixture names, among -empty's targets, the bundled fixture module.
const emptyFixture = "fixture"

// emptyTargets resolves -empty's names: the fixture module, or corpus
// entries.
func (b *bench) emptyTargets(cfg *corpusConfig) ([]*targetResult, error) {
	var out []*targetResult
	for _, name := range splitList(b.o.empty) {
		if name == emptyFixture {
			dir := locate(filepath.Join("testdata", "src", "current"))
			out = append(out, &targetResult{Entry: "fixture module (testdata/src/current)", Dir: dir, Patterns: []string{"./..."}})
			continue
		}
		es, err := cfg.lookup([]string{name})
		if err != nil {
			return nil, fmt.Errorf("-empty: %v", err)
		}
		e := es[0]
		if err := materialise(e, b.o.corpusCache, b.ctrllint); err != nil {
			return nil, err
		}
		pats, err := e.packages(b.o.corpusCache)
		if err != nil {
			return nil, err
		}
		out = append(out, &targetResult{Entry: e.Name, Dir: e.dir(b.o.corpusCache), Patterns: pats})
	}
	for _, t := range out {
		var err error
		if t.Size, err = measureSize(t.Dir, t.Patterns); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// emptyScenario measures every target of -empty, -empty-rounds times.
func (b *bench) emptyScenario(cfg *corpusConfig) ([]*targetResult, error) {
	targets, err := b.emptyTargets(cfg)
	if err != nil {
		return nil, err
	}
	for _, t := range targets {
		fmt.Fprintf(os.Stderr, "bench: empty build cache: %s: %d packages\n", t.Entry, t.Size.Packages)
		for r := 1; r <= b.o.emptyRounds; r++ {
			if err := b.emptyRound(t, r); err != nil {
				return targets, err
			}
		}
	}
	return targets, nil
}

// emptyRound runs each tool once on t, each from an empty go build cache.
func (b *bench) emptyRound(t *targetResult, n int) error {
	o := b.o
	record := func(tool, state string, cmd *exec.Cmd) {
		b.run(t, tool, state, fmt.Sprintf("empty build cache: %s round %d/%d", t.Entry, n, o.emptyRounds), true, cmd)
	}
	env := func(gocache string, extra ...string) []string {
		return append(append(slices.Clip(os.Environ()), "GOCACHE="+gocache), extra...)
	}
	// inFresh runs f with new, empty directories (the go build cache
	// first), removed after it.
	inFresh := func(f func(dirs []string), what ...string) error {
		var dirs []string
		defer func() {
			for _, d := range dirs {
				os.RemoveAll(d)
			}
		}()
		for _, w := range append([]string{"gocache"}, what...) {
			d, err := os.MkdirTemp(b.scratch, w+"-")
			if err != nil {
				return err
			}
			dirs = append(dirs, d)
		}
		f(dirs)
		return nil
	}
	pats := t.Patterns
	err := inFresh(func(d []string) {
		cmd := exec.Command(b.floor, append([]string{"-test=false", "-source"}, pats...)...)
		cmd.Env = env(d[0])
		record(toolSource, stateNone, cmd)
	})
	if err == nil && o.tools["ctrllint"] {
		err = inFresh(func(d []string) {
			mk := func() *exec.Cmd {
				cmd := exec.Command(b.ctrllint, append([]string{"-test=false"}, pats...)...)
				cmd.Env = env(d[0], "CTRLLINT_CACHE="+d[1])
				return cmd
			}
			record(toolCtrllint, stateFirst, mk())
			os.RemoveAll(filepath.Join(d[1], "results"))
			record(toolCtrllint, stateSecond, mk())
			t.ExportBytes = dirSize(filepath.Join(d[1], "exports"))
		}, "ctrllint-cache")
	}
	if err == nil && o.tools["vet"] {
		err = inFresh(func(d []string) {
			cmd := exec.Command("go", append([]string{"vet"}, pats...)...)
			cmd.Env = env(d[0])
			record(toolVet, stateNone, cmd)
		})
	}
	if err == nil && o.tools["staticcheck"] {
		err = inFresh(func(d []string) {
			cmd := exec.Command(b.staticcheck, append([]string{"-tests=false"}, pats...)...)
			cmd.Env = env(d[0], "STATICCHECK_CACHE="+d[1])
			record(toolStaticcheck, stateNone, cmd)
		}, "staticcheck-cache")
	}
	return err
}

// dirSize is the size of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n
}

// emptyMarkdown renders the scenario.
func emptyMarkdown(targets []*targetResult) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("\n## From an empty build cache\n\n")
	p("Each tool from a go build cache of its own, new and empty (GOCACHE), removed after it: what a CI runner or a fresh clone pays. ")
	p("The source floor is go/packages type-checking the whole graph from source (hack/bench/floor -source): no export data, nothing compiled. ")
	p("ctrllint's first run has an empty cache directory; its second run, right after, has the build cache and the export data the first left, its results removed (a run after an edit). ")
	p("go vet and staticcheck build export data with the go command; go vet cannot leave out test files. Tests are left out everywhere else.\n")
	for _, t := range targets {
		p("\n### %s\n\n", t.Entry)
		p("`%s` in %s: %d packages.", strings.Join(t.Patterns, " "), t.Dir, t.Size.Packages)
		if t.ExportBytes > 0 {
			p(" ctrllint's export data after the first run: %s.", megabytes(float64(t.ExportBytes)))
		}
		p("\n\n")
		tb := &table{
			header: []string{"tool", "wall", "×source floor", "CPU", "×source floor", "peak RSS (tree)", "runs"},
			right:  []bool{false, true, true, true, true, true, true},
		}
		floor := t.find(toolSource, stateNone)
		for _, r := range t.Rows {
			walls := r.values(wallOf)
			runs := fmt.Sprint(len(r.good()))
			if n := r.failures(); n > 0 {
				runs += fmt.Sprintf(" (+%d failed)", n)
			}
			tb.add(r.label(), seconds(median(walls))+spread(walls, seconds), ratio(r.wall(), nanRow(floor, (*row).wall)),
				seconds(r.cpu()), ratio(r.cpu(), nanRow(floor, (*row).cpu)), megabytes(r.treeRSS()), runs)
		}
		p("%s", tb)
		if notes := t.notes(false); notes != "" {
			p("\n%s", notes)
		}
		if c, f := t.find(toolCtrllint, stateFirst), floor; c != nil && f != nil {
			x := c.cpu() / f.cpu()
			met := "met"
			if !(x <= 2) {
				met = "NOT met"
			}
			p("\nTarget (issue 32): ctrllint's first run at most 2x the source floor's CPU: %.2fx, %s.\n", x, met)
		}
	}
	return b.String()
}
