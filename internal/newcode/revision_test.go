package newcode_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrllint/ctrllint/internal/newcode"
)

func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(root, path)
		got[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// The revision's tree is written where it is kept, rewritten in place for
// the next revision (a file the next one lacks is removed), with the
// renames since it; the repository's index is left alone; a directory a
// live process holds is not shared.
func TestRevision(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"a.go": "package m\n", "old.go": "package m\n\nvar Old = 1\n", "sub/s.go": "package sub\n"})
	first := r.Commit("one")
	r.Git("mv", "old.go", "renamed.go")
	r.Write(map[string]string{"a.go": "package m\n\nvar A = 2\n"})
	r.Git("rm", "-q", "sub/s.go")
	second := r.Commit("two")
	r.Write(map[string]string{"a.go": "package m\n\nvar A = 3\n"}) // uncommitted

	index := filepath.Join(r.Dir, ".git", "index")
	before, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	keep := t.TempDir()
	ctx := context.Background()
	c, err := newcode.FromRev(ctx, r.Dir, first)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := c.Revision(keep)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.go": "package m\n", "old.go": "package m\n\nvar Old = 1\n", "sub/s.go": "package sub\n"}
	if got := readTree(t, rev.Root); !maps.Equal(got, want) {
		t.Errorf("tree of %s: %v, want %v", first, got, want)
	}
	if rev.Commit != first || rev.Renamed["old.go"] != "renamed.go" || len(rev.Renamed) != 1 {
		t.Errorf("commit %s, renamed %v", rev.Commit, rev.Renamed)
	}
	kept := rev.Root
	if !strings.HasPrefix(kept, keep+string(filepath.Separator)) {
		t.Errorf("root %s not under %s", kept, keep)
	}

	// Another run while this one holds the directory: one of its own,
	// removed on Close.
	c2, err := newcode.FromRev(ctx, r.Dir, second)
	if err != nil {
		t.Fatal(err)
	}
	other, err := c2.Revision(keep)
	if err != nil {
		t.Fatal(err)
	}
	if other.Root == kept {
		t.Errorf("a held directory was shared")
	}
	other.Close()
	if _, err := os.Stat(other.Root); !os.IsNotExist(err) {
		t.Errorf("%s left behind: %v", other.Root, err)
	}
	rev.Close()

	// Released: the next run rewrites the kept directory in place.
	again, err := c2.Revision(keep)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.Root != kept {
		t.Errorf("second revision at %s, want the kept %s", again.Root, kept)
	}
	want = map[string]string{"a.go": "package m\n\nvar A = 2\n", "renamed.go": "package m\n\nvar Old = 1\n"}
	if got := readTree(t, again.Root); !maps.Equal(got, want) {
		t.Errorf("tree of %s: %v, want %v", second, got, want)
	}
	after, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("the repository's index changed")
	}
	if out := r.Git("worktree", "list", "--porcelain"); strings.Count("\n"+out, "\nworktree ") != 1 {
		t.Errorf("worktrees:\n%s", out)
	}
}

// A lock left by a process that is gone is taken over.
func TestRevisionStaleLock(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"a.go": "package m\n"})
	first := r.Commit("one")
	c, err := newcode.FromRev(context.Background(), r.Dir, first)
	if err != nil {
		t.Fatal(err)
	}
	keep := t.TempDir()
	rev, err := c.Revision(keep)
	if err != nil {
		t.Fatal(err)
	}
	kept := rev.Root
	rev.Close()
	// A pid no process has: beyond the kernel's default pid_max.
	lock := filepath.Join(filepath.Dir(kept), "lock")
	if err := os.WriteFile(lock, []byte(strconv.Itoa(1<<30)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rev, err = c.Revision(keep)
	if err != nil {
		t.Fatal(err)
	}
	defer rev.Close()
	if rev.Root != kept {
		t.Errorf("a stale lock kept the run out: %s", rev.Root)
	}
}

// A kept revision no run has used for five days is removed by the next
// run that keeps one; a recent one, or one a run holds, stays.
func TestRevisionSweep(t *testing.T) {
	r := newRepo(t)
	r.Write(map[string]string{"a.go": "package m\n"})
	first := r.Commit("one")
	keep := t.TempDir()
	old, recent, held := filepath.Join(keep, "old"), filepath.Join(keep, "recent"), filepath.Join(keep, "held")
	long := time.Now().Add(-6 * 24 * time.Hour)
	for _, d := range []string{old, recent, held} {
		if err := os.MkdirAll(filepath.Join(d, "tree"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "used"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if d != recent {
			os.Chtimes(filepath.Join(d, "used"), long, long)
		}
	}
	if err := os.WriteFile(filepath.Join(held, "lock"), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := newcode.FromRev(context.Background(), r.Dir, first)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := c.Revision(keep)
	if err != nil {
		t.Fatal(err)
	}
	defer rev.Close()
	for d, want := range map[string]bool{old: false, recent: true, held: true, filepath.Dir(rev.Root): true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}
