package newcode_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/newcode"
	"github.com/ctrllint/ctrllint/internal/newcode/gittest"
)

func newRepo(t *testing.T) *gittest.Repo {
	gittest.Isolate(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return gittest.Init(t, dir)
}

// at is a finding at the first occurrence of needle in file (a slash path
// in r), spanning needle.
func at(t *testing.T, r *gittest.Repo, file, needle string) finding.Finding {
	t.Helper()
	path := filepath.Join(r.Dir, filepath.FromSlash(file))
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	off := strings.Index(string(src), needle)
	if off < 0 {
		t.Fatalf("%s has no %q", file, needle)
	}
	line := 1 + strings.Count(string(src[:off]), "\n")
	endLine := line + strings.Count(needle, "\n")
	return finding.Finding{
		Analyzer: "test", Message: needle,
		Pos: finding.Position{File: path, Offset: off, Line: line, Column: 1},
		End: finding.Position{File: path, Offset: off + len(needle), Line: endLine, Column: 1},
	}
}

// kept runs Keep on fs and returns the kept findings' messages.
func kept(c *newcode.Changes, fs ...finding.Finding) []string {
	var out []string
	for _, f := range c.Keep(fs) {
		out = append(out, f.Message)
	}
	return out
}

func expect(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%s: kept %q, want %q", what, got, want)
	}
}

const worker = `package m

func Old() {
	bad()
}

// Worker takes a key and marks it done.
func Worker() {
	get()
	work()
	work()
	work()
	done()
}

var handler = func() {
	bad()
}

var (
	a = 1
	b = func() { bad() }
)
`

// long is a function longer than M1, so that git shows M1 moved past it
// rather than it moved before M1.
const long = "func M2() {\n\tx()\n\tx()\n\tx()\n}\n"

func TestKeep(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{
		"m.go":      worker,
		"ren.go":    "package m\n\nfunc R() { bad() }\n",
		"del.go":    "package m\n\nfunc D() { bad() }\n",
		"moved.go":  "package m\n\nfunc M1() { bad() }\n\n" + long,
		"multi.go":  "package m\n\nfunc Multi() {\n\tcall(\n\t\t1,\n\t\t2,\n\t)\n}\n",
		"staged.go": "package m\n\nfunc S() {}\n",
	})
	base := r.Commit("base")

	// The cause of Worker's finding changes 4 lines below it; Old is not
	// touched; the var handler's closure is; b's spec is not.
	r.Write(map[string]string{
		"m.go": strings.Replace(strings.Replace(worker, "\tdone()\n", "", 1), "var handler = func() {\n", "var handler = func() {\n\tx()\n", 1),
		// Moved: M1 now after M2.
		"moved.go":  "package m\n\n" + long + "\nfunc M1() { bad() }\n",
		"multi.go":  "package m\n\nfunc Multi() {\n\tcall(\n\t\t1,\n\t\t3,\n\t)\n}\n",
		"new.go":    "package m\n\nfunc N() { bad() }\n",
		"staged.go": "package m\n\nfunc S() { bad() }\n",
	})
	r.Git("mv", "ren.go", "renamed.go")
	r.Git("rm", "-q", "del.go")
	r.Git("add", "staged.go")

	c, err := newcode.FromRev(context.Background(), r.Dir, base)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, "Worker's get, whose done() was removed", kept(c, at(t, r, "m.go", "get()")), "get()")
	expect(t, "Old, untouched", kept(c, at(t, r, "m.go", "bad()")))
	expect(t, "the changed closure of var handler", kept(c, at(t, r, "m.go", "bad()\n}\n\nvar (")), "bad()\n}\n\nvar (")
	expect(t, "b's spec, in a block another line of which is untouched", kept(c, at(t, r, "m.go", "bad() }")))
	expect(t, "an untracked file", kept(c, at(t, r, "new.go", "bad()")), "bad()")
	expect(t, "a staged change", kept(c, at(t, r, "staged.go", "bad()")), "bad()")
	expect(t, "a renamed file without changes", kept(c, at(t, r, "renamed.go", "bad()")))
	expect(t, "a function moved within its file", kept(c, at(t, r, "moved.go", "bad()")), "bad()")
	expect(t, "a multi-line finding whose third line changed", kept(c, at(t, r, "multi.go", "call(\n\t\t1,\n\t\t3,\n\t)")), "call(\n\t\t1,\n\t\t3,\n\t)")
	// del.go is gone: a finding there (from a stale result) is not new.
	gone := at(t, r, "m.go", "bad()")
	gone.Pos.File, gone.End.File = filepath.Join(r.Dir, "del.go"), filepath.Join(r.Dir, "del.go")
	expect(t, "a deleted file", kept(c, gone))
	// Outside the repository, and without a file.
	outside := finding.Finding{Message: "outside", Pos: finding.Position{File: filepath.Join(filepath.Dir(r.Dir), "x.go"), Line: 1}}
	nofile := finding.Finding{Message: "nofile"}
	expect(t, "outside the repository, and without a file", kept(c, outside, nofile), "nofile")

	if !c.Added(filepath.Join(r.Dir, "moved.go"), 9, 9) || c.Added(filepath.Join(r.Dir, "moved.go"), 1, 7) {
		t.Error("moved.go: want line 9 added, lines 1-7 not")
	}
}

// From a subdirectory, through a symbolic link to the repository, with a
// configuration that changes git diff's output in every way it can.
func TestHostileSetup(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{
		"sub/a.go":      "package sub\n\nfunc A() {}\n",
		"sub/ren.go":    "package sub\n\nfunc R() { bad() }\n\nfunc more() {}\n",
		"sub/sp ace.go": "package sub\n",
		"sub/é.go":      "package sub\n",
		"top.go":        "package m\n",
		".gitignore":    "ignored.go\n",
	})
	base := r.Commit("base")
	for _, kv := range [][2]string{
		{"diff.noprefix", "true"}, {"diff.mnemonicPrefix", "true"}, {"diff.renames", "false"},
		{"diff.relative", "true"}, {"color.ui", "always"}, {"color.diff", "always"}, {"diff.context", "5"},
		{"core.quotePath", "true"}, {"diff.external", "false"}, {"diff.suppressBlankEmpty", "true"},
	} {
		r.Git("config", kv[0], kv[1])
	}
	r.Write(map[string]string{
		"sub/a.go":      "package sub\n\nfunc A() { bad() }\n",
		"sub/sp ace.go": "package sub\n\nfunc Sp() { bad() }\n",
		"sub/é.go":      "package sub\n\nfunc E() { bad() }\n",
		"top.go":        "package m\n\nfunc T() { bad() }\n",
		"ignored.go":    "package m\n\nfunc I() { bad() }\n",
	})
	r.Git("mv", "sub/ren.go", "sub/ren2.go")

	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(r.Dir, link); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	c, err := newcode.FromRev(context.Background(), filepath.Join(link, "sub"), base)
	if err != nil {
		t.Fatal(err)
	}
	if c.Root() != r.Dir {
		t.Errorf("Root() = %s, want %s", c.Root(), r.Dir)
	}
	viaLink := func(f finding.Finding) finding.Finding {
		f.Pos.File = filepath.Join(link, strings.TrimPrefix(f.Pos.File, r.Dir))
		f.End.File = f.Pos.File
		return f
	}
	for _, file := range []string{"sub/a.go", "sub/sp ace.go", "sub/é.go", "top.go"} {
		f := at(t, r, file, "bad()")
		expect(t, file, kept(c, f), "bad()")
		expect(t, file+" through the link", kept(c, viaLink(f)), "bad()")
	}
	expect(t, "a renamed file, with diff.renames off", kept(c, at(t, r, "sub/ren2.go", "bad()")))
	expect(t, "an ignored file", kept(c, at(t, r, "ignored.go", "bad()")))
	// With diff.context, the lines around a change are not changed.
	if c.Added(filepath.Join(r.Dir, "sub/a.go"), 1, 2) {
		t.Error("sub/a.go's unchanged lines 1-2 counted as changed")
	}
}

func TestFromMergeBase(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"a.go": "package m\n\nfunc A() {}\n"})
	r.Commit("base")
	r.Git("checkout", "-q", "-b", "feature")
	r.Write(map[string]string{"f.go": "package m\n\nfunc F() { bad() }\n"})
	r.Commit("feature")
	r.Git("checkout", "-q", "main")
	r.Write(map[string]string{"a.go": "package m\n\nfunc A() { bad() }\n"})
	r.Commit("main moves on")
	r.Git("checkout", "-q", "feature")
	// a.go as the feature branch has it: unchanged since the merge base,
	// although main changed it since.
	r.Write(map[string]string{"a.go": "package m\n\nfunc A() { bad() }\n"})
	r.Git("checkout", "-q", "--", "a.go")

	c, err := newcode.FromMergeBase(context.Background(), r.Dir, "main")
	if err != nil {
		t.Fatal(err)
	}
	r.Write(map[string]string{"a.go": "package m\n\nfunc A() {}\n"}) // for at
	expect(t, "the feature's change", kept(c, at(t, r, "f.go", "bad()")), "bad()")
	if c.Touched(filepath.Join(r.Dir, "a.go"), 1, 3) {
		t.Error("a.go: main's change counted as the feature's")
	}
	// -new-from-rev main would count main's change, reverted here, as new.
	c, err = newcode.FromRev(context.Background(), r.Dir, "main")
	if err != nil {
		t.Fatal(err)
	}
	if !c.Touched(filepath.Join(r.Dir, "a.go"), 1, 3) {
		t.Error("a.go: the difference from main not seen by FromRev")
	}
}

func TestErrors(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"a.go": "package m\n"})
	r.Commit("base")
	notRepo := t.TempDir()

	orphan := newRepo(t)
	orphan.Write(map[string]string{"a.go": "package m\n"})
	orphan.Commit("one")
	orphan.Git("checkout", "-q", "--orphan", "other")
	orphan.Commit("unrelated")

	ctx := context.Background()
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"not a repository", func() error { _, err := newcode.FromRev(ctx, notRepo, "HEAD"); return err },
			"git rev-parse --show-toplevel: fatal: not a git repository"},
		{"unknown revision", func() error { _, err := newcode.FromRev(ctx, r.Dir, "nope"); return err },
			"git rev-parse nope: no such commit"},
		{"an option for a revision", func() error { _, err := newcode.FromRev(ctx, r.Dir, "--output=x"); return err },
			`"--output=x" is not a revision`},
		{"a range", func() error { _, err := newcode.FromRev(ctx, r.Dir, "HEAD~1..HEAD"); return err },
			`"HEAD~1..HEAD" is a range; give one revision`},
		{"unknown branch", func() error { _, err := newcode.FromMergeBase(ctx, r.Dir, "nope"); return err },
			"git merge-base nope HEAD: fatal: Not a valid object name nope"},
		{"no merge base", func() error { _, err := newcode.FromMergeBase(ctx, orphan.Dir, "main"); return err },
			"main and HEAD have no common ancestor (git merge-base main HEAD found none)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "shallow") {
				t.Errorf("a shallow-clone hint in a full clone: %v", err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "x")); err == nil {
		t.Error("-output=x wrote a file")
	}

	t.Run("git not in PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := newcode.FromRev(ctx, r.Dir, "HEAD")
		if err == nil || !strings.Contains(err.Error(), `git is needed to find the changed lines: exec: "git": executable file not found in $PATH`) {
			t.Errorf("error %v", err)
		}
	})
}

// A shallow clone (CI's default checkout) has no older revisions: the
// error says why and what to do.
func TestShallowClone(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"a.go": "package m\n"})
	first := r.Commit("one")
	r.Write(map[string]string{"a.go": "package m\n\nvar X = 1\n"})
	r.Commit("two")
	r.Git("checkout", "-q", "-b", "side", first)
	r.Commit("side")
	r.Git("checkout", "-q", "main")

	clone := filepath.Join(t.TempDir(), "clone")
	r.Git("clone", "-q", "--depth=1", "--no-single-branch", "file://"+r.Dir, clone)
	ctx := context.Background()
	_, err := newcode.FromRev(ctx, clone, first)
	if err == nil || !strings.Contains(err.Error(), "git rev-parse "+first+": no such commit") ||
		!strings.Contains(err.Error(), "this is a shallow clone, whose history may not reach that far: fetch the history first (git fetch --unshallow, or actions/checkout with fetch-depth: 0)") {
		t.Errorf("FromRev: %v", err)
	}
	_, err = newcode.FromMergeBase(ctx, clone, "origin/side")
	if err == nil || !strings.Contains(err.Error(), "origin/side and HEAD have no common ancestor") || !strings.Contains(err.Error(), "shallow clone") {
		t.Errorf("FromMergeBase: %v", err)
	}
}

// git diff would refresh the index's stat cache and write it back (taking
// index.lock); a linter leaves the repository as it was.
func TestLeavesIndexAlone(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"a.go": "package m\n", "b.go": "package m\n"})
	base := r.Commit("base")
	// a.go's time changes and its content does not; b.go changes.
	r.Write(map[string]string{"a.go": "package m\n", "b.go": "package m\n\nvar B = 1\n"})
	index := filepath.Join(r.Dir, ".git", "index")
	before, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	c, err := newcode.FromRev(context.Background(), r.Dir, base)
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Error("the index was rewritten")
	}
	if c.Touched(filepath.Join(r.Dir, "a.go"), 1, 1) || !c.Added(filepath.Join(r.Dir, "b.go"), 3, 3) {
		t.Error("want a.go unchanged (only its time changed), b.go's line 3 added")
	}
}
