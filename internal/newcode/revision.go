package newcode

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ctrllint/ctrllint/internal/driver/load"
)

// A Revision is the tree of the commit the changes are measured from,
// written out so that it can be analysed: the findings new code brings
// are those of the working tree that the revision does not have.
type Revision struct {
	// Root is the directory the revision's top level is written to.
	Root string
	// Commit is the commit written.
	Commit string
	// Renamed maps the paths of files the working tree has renamed
	// (slash, relative to the top level) to their new paths.
	Renamed map[string]string
	release func()
}

// Close releases the revision's directory: a directory of its own is
// removed, the kept one unlocked for the next run.
func (r *Revision) Close() {
	if r.release != nil {
		r.release()
		r.release = nil
	}
}

// Revision writes the tree of the commit the changes are measured from.
// Under keep (a directory of the result cache's, "" for none) each
// repository has one directory, rewritten in place through an index of
// its own: only the files that differ from the last revision written
// there change, and the files keep their paths from run to run, which is
// what lets the result cache know the revision's packages again. A
// directory another run holds, or no keep, gets a directory of its own,
// removed on Close. The repository's own index, working tree and
// worktree list are not touched.
func (c *Changes) Revision(keep string) (*Revision, error) {
	if c.repo == nil {
		return nil, errors.New("no repository to read the revision from")
	}
	renamed, err := c.repo.renames(c.rev)
	if err != nil {
		return nil, err
	}
	r := &Revision{Commit: c.rev, Renamed: renamed}
	if keep != "" {
		sum := sha256.Sum256([]byte(c.root))
		base := filepath.Join(keep, hex.EncodeToString(sum[:8]))
		if unlock, ok := lock(base); ok {
			markUsed(base)
			sweep(keep, time.Now())
			r.Root, r.release = filepath.Join(base, "tree"), unlock
			if err := c.repo.writeTree(c.rev, r.Root, filepath.Join(base, "index")); err == nil {
				return r, nil
			}
			// A tree left half written by a run that was stopped: write
			// it again from nothing.
			os.RemoveAll(r.Root)
			os.Remove(filepath.Join(base, "index"))
			if err := c.repo.writeTree(c.rev, r.Root, filepath.Join(base, "index")); err == nil {
				return r, nil
			}
			r.Close()
		}
	}
	dir, err := os.MkdirTemp("", "ctrllint-revision-")
	if err != nil {
		return nil, err
	}
	r.Root = filepath.Join(dir, "tree")
	r.release = func() { os.RemoveAll(dir) }
	if err := c.repo.writeTree(c.rev, r.Root, filepath.Join(dir, "index")); err != nil {
		r.Close()
		return nil, fmt.Errorf("writing the tree of %s: %v", c.rev, err)
	}
	return r, nil
}

// writeTree makes dir hold the files of commit, through the index file
// index: git read-tree --reset -u writes the files the index says differ,
// and removes those the commit no longer has.
func (g *repo) writeTree(commit, dir, index string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	gitDir, err := g.run(g.top, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return err
	}
	_, err = g.runEnv(g.top, []string{"GIT_INDEX_FILE=" + index},
		"--git-dir="+strings.TrimRight(string(gitDir), "\r\n"), "--work-tree="+dir, "read-tree", "--reset", "-u", commit)
	if err != nil {
		return err
	}
	// The analysis that follows at once would take the files written
	// last for half written, and cache nothing of their packages.
	load.SettleWrites(index)
	return nil
}

// renames returns the files renamed since commit, old path to new.
func (g *repo) renames(commit string) (map[string]string, error) {
	out, err := g.run(g.top, "diff-index", "-M", "--name-status", "-z", commit, "--")
	if err != nil {
		return nil, err
	}
	renamed := map[string]string{}
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		status := fields[i]
		switch {
		case strings.HasPrefix(status, "R") || strings.HasPrefix(status, "C"):
			if i+2 >= len(fields) {
				return nil, fmt.Errorf("git diff-index --name-status: truncated entry %q", status)
			}
			if status[0] == 'R' {
				renamed[fields[i+1]] = fields[i+2]
			}
			i += 2
		case status != "":
			i++ // one path
		}
	}
	return renamed, nil
}

// lock takes the directory base for this process, creating it: ok is
// false when another live process holds it. A lock whose process is gone
// is taken over.
func lock(base string) (unlock func(), ok bool) {
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, false
	}
	name := filepath.Join(base, "lock")
	for range 2 {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(name) }, true
		}
		data, rerr := os.ReadFile(name)
		pid, perr := strconv.Atoi(strings.TrimSpace(string(data)))
		if rerr != nil || perr != nil || processAlive(pid) {
			return nil, false
		}
		os.Remove(name) // its process is gone
	}
	return nil, false
}

// keptFor is how long a repository's kept revision outlives its last use,
// as the export data's entries do (load's trimAfter).
const keptFor = 5 * 24 * time.Hour

// markUsed records that the kept directory base was used now.
func markUsed(base string) {
	os.WriteFile(filepath.Join(base, "used"), []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644)
}

// sweep removes the kept revisions of repositories no run has compared
// with for keptFor (a clone deleted, a branch long merged), unless a run
// holds them.
func sweep(keep string, now time.Time) {
	dirs, err := os.ReadDir(keep)
	if err != nil {
		return
	}
	for _, d := range dirs {
		base := filepath.Join(keep, d.Name())
		st, err := os.Stat(filepath.Join(base, "used"))
		if !d.IsDir() || err != nil || now.Sub(st.ModTime()) < keptFor {
			continue
		}
		if unlock, ok := lock(base); ok {
			os.RemoveAll(base) // the lock goes with it
			unlock()
		}
	}
}
