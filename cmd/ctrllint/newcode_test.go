package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/newcode/gittest"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// newCodeSuite has badcall, whose finding's cause is on its line, and
// unpaired, whose finding (on a get) is caused by a missing done anywhere
// in the function, as queuedone's is.
func newCodeSuite() suite {
	return suite{
		analyzers: []*analysis.Analyzer{testanalyzers.BadCall, testanalyzers.Unpaired},
		lookup:    func(string) (analyzers.Info, bool) { return analyzers.Info{}, false },
	}
}

func runNewCode(args ...string) result {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr, newCodeSuite())
	return result{stdout.String(), stderr.String(), code}
}

const newCodeBase = `package m

func bad()  {}
func good() {}
func get()  {}
func done() {}
func work() {}

func Old() {
	bad()
}

func Worker() {
	get()
	work()
	work()
	work()
	done()
}
`

// newCodeRepo is a module committed to a git repository on main, with a
// finding in Old, and a Worker that has none yet.
func newCodeRepo(t *testing.T) (*gittest.Repo, string) {
	gittest.Isolate(t)
	dir := testanalyzers.WriteModule(t, map[string]string{
		"m.go":     newCodeBase,
		"moved.go": "package m\n\nfunc M1() { bad() }\n\nfunc M2() {\n\twork()\n\twork()\n\twork()\n}\n",
		"ren.go":   "package m\n\nfunc R() { bad() }\n",
		"del.go":   "package m\n\nfunc D() { bad() }\n",
	})
	r := gittest.Init(t, dir)
	return r, r.Commit("base")
}

func TestNewFromRev(t *testing.T) {
	r, base := newCodeRepo(t)
	// Worker loses its done() four lines below the get(), which stays as
	// it was; M1 moves below M2; ren.go is renamed unchanged; del.go is
	// deleted; new.go is new and untracked.
	r.Write(map[string]string{
		"m.go":     strings.Replace(strings.Replace(newCodeBase, "\tdone()\n", "", 1), "\tbad()\n", "\twork()\n\tbad()\n", 1),
		"moved.go": "package m\n\nfunc M2() {\n\twork()\n\twork()\n\twork()\n}\n\nfunc M1() { bad() }\n",
		"new.go":   "package m\n\nfunc N() { bad() }\n",
	})
	r.Git("mv", "ren.go", "ren2.go")
	r.Git("rm", "-q", "del.go")

	all := runNewCode("-C", r.Dir, "./...")
	wantAll := "m.go:11:2: call of bad (badcall)\n" +
		"m.go:15:2: get without done (unpaired)\n" +
		"moved.go:9:13: call of bad (badcall)\n" +
		"new.go:3:12: call of bad (badcall)\n" +
		"ren2.go:3:12: call of bad (badcall)\n"
	if all.code != exitFindings || all.stdout != wantAll || all.stderr != "" {
		t.Fatalf("without -new-from-rev: exit %d\n%s\nwant:\n%s\nstderr:\n%s", all.code, all.stdout, wantAll, all.stderr)
	}

	// Old's finding, though its function gained a line above it, M1's,
	// moved, and the renamed file's are the revision's too: not new.
	// Worker's is, though its line is unchanged: its function lost the
	// done() further down, and the revision has no such finding.
	want := "m.go:15:2: get without done (unpaired)\n" +
		"new.go:3:12: call of bad (badcall)\n"
	for _, rev := range []string{base, "HEAD", "main"} {
		got := runNewCode("-C", r.Dir, "-new-from-rev", rev, "./...")
		if got.code != exitFindings || got.stdout != want || got.stderr != "" {
			t.Errorf("-new-from-rev %s: exit %d\n%s\nwant:\n%s\nstderr:\n%s", rev, got.code, got.stdout, want, got.stderr)
		}
	}

	// Through a symbolic link to the repository (macOS's /var is one):
	// the findings' paths and git's top level are compared resolved.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(r.Dir, link); err != nil {
		t.Fatal(err)
	}
	if got := runNewCode("-C", link, "-new-from-rev", base, "./..."); got.code != exitFindings || got.stdout != want || got.stderr != "" {
		t.Errorf("through a symbolic link: exit %d\n%s\nwant:\n%s\nstderr:\n%s", got.code, got.stdout, want, got.stderr)
	}

	// From a subdirectory: paths are printed relative to it, as always,
	// and the repository is the one containing it.
	sub := filepath.Join(r.Dir, "sub")
	r.Write(map[string]string{"sub/s.go": "package sub\n\nfunc bad() {}\n\nfunc S() { bad() }\n"})
	got := runNewCode("-C", sub, "-new-from-rev", base, "../...")
	// m.go is outside the working directory: printed absolute.
	if got.code != exitFindings || !strings.Contains(got.stdout, filepath.Join(r.Dir, "m.go")+":15:2: get without done") ||
		!strings.Contains(got.stdout, "\ns.go:5:12: call of bad (badcall)\n") || strings.Contains(got.stdout, ":11:2:") {
		t.Errorf("from sub: exit %d\n%s%s", got.code, got.stdout, got.stderr)
	}

	// Committed, nothing is new since HEAD: no output, exit 0, in
	// every format.
	r.Commit("feature")
	for _, f := range []string{"text", "json", "sarif"} {
		got := runNewCode("-C", r.Dir, "-f", f, "-new-from-rev", "HEAD", "./...")
		if got.code != exitClean || got.stderr != "" || f == "text" && got.stdout != "" || f == "json" && got.stdout != "[]\n" {
			t.Errorf("-f %s -new-from-rev HEAD with nothing changed: exit %d\n%s%s", f, got.code, got.stdout, got.stderr)
		}
	}
}

// -new-from-merge-base on a feature branch: main's later changes are not
// the branch's.
func TestNewFromMergeBase(t *testing.T) {
	r, _ := newCodeRepo(t)
	r.Git("checkout", "-q", "-b", "feature")
	r.Write(map[string]string{"f.go": "package m\n\nfunc F() { bad() }\n"})
	r.Commit("feature")
	r.Git("checkout", "-q", "main")
	r.Write(map[string]string{"main.go": "package m\n\nfunc Main() { bad() }\n"})
	r.Commit("main moves on")
	r.Git("checkout", "-q", "feature")
	r.Write(map[string]string{"uncommitted.go": "package m\n\nfunc U() { bad() }\n"})

	got := runNewCode("-C", r.Dir, "-new-from-merge-base", "main", "./...")
	want := "f.go:3:12: call of bad (badcall)\nuncommitted.go:3:12: call of bad (badcall)\n"
	if got.code != exitFindings || got.stdout != want || got.stderr != "" {
		t.Errorf("-new-from-merge-base main: exit %d\n%s\nwant:\n%s\nstderr:\n%s", got.code, got.stdout, want, got.stderr)
	}
}

// A revision that does not compile cannot say which findings it had: the
// findings in changed code are reported instead, and stderr says why.
func TestNewFromRevFallback(t *testing.T) {
	r, _ := newCodeRepo(t)
	r.Write(map[string]string{"broken.go": "package m\n\nfunc Broken() { undefined() }\n"})
	broken := r.Commit("does not compile")
	r.Git("rm", "-q", "broken.go")
	r.Write(map[string]string{"new.go": "package m\n\nfunc N() { bad() }\n"})

	got := runNewCode("-C", r.Dir, "-new-from-rev", broken, "./...")
	if got.code != exitFindings || got.stdout != "new.go:3:12: call of bad (badcall)\n" ||
		!strings.Contains(got.stderr, "ctrllint: -new-from-rev: the revision "+broken[:12]+" does not load in full") ||
		!strings.HasSuffix(got.stderr, "; reporting the findings in changed code instead\n") {
		t.Errorf("exit %d\n%s\nstderr:\n%s", got.code, got.stdout, got.stderr)
	}
}

// The revision's packages are cached where the revision is kept: the
// next run against it answers them from the cache, storing nothing more.
// Written just before its analysis, the revision's last files once looked
// half written to it, and their packages were cached only by the run after.
func TestNewFromRevCachesRevision(t *testing.T) {
	r, base := newCodeRepo(t)
	cache := t.TempDir()
	t.Setenv("CTRLLINT_CACHE", cache)
	r.Write(map[string]string{"new.go": "package m\n\nfunc N() { bad() }\n"})
	results := func() int {
		n := 0
		filepath.WalkDir(filepath.Join(cache, "results"), func(_ string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
		return n
	}
	want := "new.go:3:12: call of bad (badcall)\n"
	first := runNewCode("-C", r.Dir, "-new-from-rev", base, "./...")
	stored := results()
	second := runNewCode("-C", r.Dir, "-new-from-rev", base, "./...")
	if first.stdout != want || second.stdout != want || first.code != exitFindings || second.code != exitFindings {
		t.Fatalf("runs: %+v then %+v, want %q twice", first, second, want)
	}
	if stored < 2 {
		t.Fatalf("%d results cached after the first run: want the working tree's and the revision's", stored)
	}
	if n := results(); n != stored {
		t.Errorf("the second run cached %d more results: the first did not cache the revision's", n-stored)
	}
}

// Only the new findings' fixes are applied.
func TestNewFromRevFix(t *testing.T) {
	r, base := newCodeRepo(t)
	r.Write(map[string]string{"new.go": "package m\n\nfunc N() { bad() }\n"})
	got := runNewCode("-C", r.Dir, "-fix", "-new-from-rev", base, "./...")
	if got.code != exitClean || got.stdout != "" || got.stderr != "ctrllint: applied 1 fixes to 1 files\n" {
		t.Errorf("exit %d\n%s%s", got.code, got.stdout, got.stderr)
	}
	for file, want := range map[string]string{"new.go": "good()", "m.go": "\tbad()\n"} {
		b, err := os.ReadFile(filepath.Join(r.Dir, file))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v, want %q in\n%s", file, err, want, b)
		}
	}
}

func TestNewCodeErrors(t *testing.T) {
	r, base := newCodeRepo(t)
	r.Write(map[string]string{"a.go": "package m\n\nfunc A() {}\n"})
	r.Commit("two")
	notRepo := testanalyzers.WriteModule(t, map[string]string{"a.go": "package m\n"})
	orphan, _ := newCodeRepo(t)
	orphan.Git("checkout", "-q", "--orphan", "other")
	orphan.Commit("unrelated")
	shallow := filepath.Join(t.TempDir(), "shallow")
	r.Git("clone", "-q", "--depth=1", "file://"+r.Dir, shallow)

	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"unknown revision", []string{"-C", r.Dir, "-new-from-rev", "nope", "./..."},
			"ctrllint: -new-from-rev nope: git rev-parse nope: no such commit\n"},
		{"a range", []string{"-C", r.Dir, "-new-from-rev", "main..HEAD", "./..."},
			`ctrllint: -new-from-rev main..HEAD: "main..HEAD" is a range; give one revision, which the working tree is compared with` + "\n"},
		{"not a git repository", []string{"-C", notRepo, "-new-from-rev", "HEAD", "./..."},
			"ctrllint: -new-from-rev HEAD: git rev-parse --show-toplevel: fatal: not a git repository"},
		{"unknown branch", []string{"-C", r.Dir, "-new-from-merge-base", "nope", "./..."},
			"ctrllint: -new-from-merge-base nope: git merge-base nope HEAD: fatal: Not a valid object name nope\n"},
		{"no merge base", []string{"-C", orphan.Dir, "-new-from-merge-base", "main", "./..."},
			"ctrllint: -new-from-merge-base main: main and HEAD have no common ancestor (git merge-base main HEAD found none)\n"},
		{"a shallow clone", []string{"-C", shallow, "-new-from-rev", base, "./..."},
			"ctrllint: -new-from-rev " + base + ": git rev-parse " + base + ": no such commit\n" +
				"\tthis is a shallow clone, whose history may not reach that far: fetch the history first (git fetch --unshallow, or actions/checkout with fetch-depth: 0)\n"},
		{"both flags", []string{"-C", r.Dir, "-new-from-rev", "HEAD", "-new-from-merge-base", "main", "./..."},
			"ctrllint: -new-from-rev and -new-from-merge-base cannot be used together\n"},
		{"an empty revision", []string{"-C", r.Dir, "-new-from-rev=", "./..."},
			"ctrllint: -new-from-rev needs a revision\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runNewCode(tc.args...)
			if got.code != exitError || got.stdout != "" || !strings.HasPrefix(got.stderr, tc.stderr) {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant stderr to start with %q", got.code, got.stdout, got.stderr, tc.stderr)
			}
		})
	}

	t.Run("git not in PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		got := runNewCode("-C", r.Dir, "-new-from-rev", "HEAD", "./...")
		want := "ctrllint: -new-from-rev HEAD: git is needed to find the changed lines: exec: \"git\": executable file not found in $PATH\n"
		if got.code != exitError || got.stdout != "" || got.stderr != want {
			t.Errorf("exit %d\nstdout %q\nstderr %q\nwant %q", got.code, got.stdout, got.stderr, want)
		}
	})
}

// The flags are in -h and in docs/README.md's table of flags.
func TestNewCodeDocumented(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	help := runNewCode("-h")
	for _, row := range []string{"| `-new-from-rev REV` |", "| `-new-from-merge-base BRANCH` |"} {
		if !strings.Contains(string(readme), "\n"+row) {
			t.Errorf("docs/README.md's flags table has no row %s", row)
		}
		name := strings.Fields(strings.Trim(row, "|` "))[0]
		if !strings.Contains(help.stderr, "\n  "+name+" ") {
			t.Errorf("-h does not show %s:\n%s", name, help.stderr)
		}
	}
}

// The real queuedone, on client-go: a change that deletes a Done()
// leaves the finding on a line it did not touch (the return that ends the
// path), which is reported because its function changed; a finding in a
// function the change did not touch is not.
func TestNewFromRevQueuedone(t *testing.T) {
	gittest.Isolate(t)
	fixtures := filepath.Join("..", "..", "testdata", "src", "current")
	files := map[string]string{"ctl/ctl.go": `package ctl

import "k8s.io/client-go/util/workqueue"

type Controller struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *Controller) processNextWorkItem() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	c.sync(key)
	c.queue.Forget(key)
	c.queue.Done(key)
	return true
}

func (c *Controller) processOld() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	c.sync(key)
	return true
}

func (c *Controller) sync(key string) {}
`}
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(fixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	r := gittest.Init(t, testanalyzers.WriteModule(t, files))
	r.Commit("base")
	r.Write(map[string]string{"ctl/ctl.go": strings.Replace(files["ctl/ctl.go"], "\tc.queue.Done(key)\n", "", 1)})

	env := []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}
	all := runBinary(t, ctrllintBin, r.Dir, env, "-enable", "queuedone", "./...")
	if all.code != exitFindings || !strings.HasPrefix(all.stdout, "ctl/ctl.go:16:2: key from c.queue.Get() is not marked Done") ||
		!strings.Contains(all.stdout, "\nctl/ctl.go:25:2: key from c.queue.Get() is not marked Done") {
		t.Fatalf("without -new-from-rev: exit %d\n%s%s", all.code, all.stdout, all.stderr)
	}
	got := runBinary(t, ctrllintBin, r.Dir, env, "-enable", "queuedone", "-new-from-rev", "HEAD", "./...")
	first, _, _ := strings.Cut(all.stdout, "\n")
	if got.code != exitFindings || got.stdout != first+"\n" || got.stderr != "" {
		t.Errorf("-new-from-rev HEAD: exit %d\n%s%s\nwant only:\n%s", got.code, got.stdout, got.stderr, first)
	}
}
