// Package newcode finds what changed in a git working tree since a
// revision, for ctrllint's -new-from-rev and -new-from-merge-base: the
// revision's files, written out to be analysed and compared with the
// working tree's findings (Changes.Revision), and the lines git shows
// changed, which judge the findings when the revision cannot be analysed
// (Changes.Keep).
//
// What counts as changed is what `git diff REV` shows, with renames
// detected (-M) and untracked files (not ignored ones) new as a whole. By
// lines, a finding is new when a line of its own range was added, or when
// its top-level declaration (a function with its doc comment, or one var,
// const or type spec) has added or removed lines: the docs explain why
// (docs/README.md, "Reporting only new code").
package newcode

import (
	"path/filepath"
	"slices"
	"strings"
)

// Changes are the lines of one repository's working tree that differ from
// a revision. Its methods are not safe for concurrent use.
type Changes struct {
	root     string            // the top level, symlinks resolved
	files    map[string]*lines // by slash path relative to root
	resolved map[string]string // resolve's answers
	repo     *repo             // nil for Changes built from a diff alone
	rev      string            // the commit compared with
}

// lines are the changes to one file.
type lines struct {
	whole   bool // untracked: every line is new
	added   []Span
	removed []int // as FileDiff.Removed
}

// newChanges builds Changes for the repository at root (symlinks
// resolved) from a diff's files and the untracked files' paths (slash,
// relative to root).
func newChanges(root string, diffs []FileDiff, untracked []string) *Changes {
	c := &Changes{root: root, files: map[string]*lines{}, resolved: map[string]string{}}
	for _, d := range diffs {
		c.files[d.Path] = &lines{added: d.Added, removed: d.Removed}
	}
	for _, p := range untracked {
		c.files[p] = &lines{whole: true}
	}
	return c
}

// Root is the repository's top level, with symbolic links resolved.
func (c *Changes) Root() string { return c.root }

// lookup returns the changes to file, an absolute path, or nil when it has
// none or is outside the repository.
func (c *Changes) lookup(file string) *lines {
	if !c.Inside(file) {
		return nil
	}
	rel, _ := filepath.Rel(c.root, c.resolve(file))
	return c.files[filepath.ToSlash(rel)]
}

// resolve returns file with symbolic links resolved, as git reports the
// top level (macOS's /var is /private/var): the findings' paths come from
// the go command, which keeps the working directory's spelling.
func (c *Changes) resolve(file string) string {
	if r, ok := c.resolved[file]; ok {
		return r
	}
	r, err := filepath.EvalSymlinks(file)
	if err != nil {
		// The file is gone; its directory may still resolve.
		r = filepath.Clean(file)
		if d, err := filepath.EvalSymlinks(filepath.Dir(file)); err == nil {
			r = filepath.Join(d, filepath.Base(file))
		}
	}
	c.resolved[file] = r
	return r
}

// Inside reports whether file, an absolute path, is in the repository.
func (c *Changes) Inside(file string) bool {
	rel, err := filepath.Rel(c.root, c.resolve(file))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Added reports whether any line from..to (inclusive, 1-based) of file,
// an absolute path, was added or changed.
func (c *Changes) Added(file string, from, to int) bool {
	l := c.lookup(file)
	return l != nil && l.addedIn(from, to)
}

// Touched reports whether any line from..to of file was added or changed,
// or lines were removed between two of them.
func (c *Changes) Touched(file string, from, to int) bool {
	l := c.lookup(file)
	return l != nil && (l.addedIn(from, to) || l.removedIn(from, to))
}

func (l *lines) addedIn(from, to int) bool {
	if l.whole {
		return true
	}
	// The first span that ends at or after from.
	i, _ := slices.BinarySearchFunc(l.added, from, func(s Span, line int) int { return s.To - line })
	return i < len(l.added) && l.added[i].From <= to
}

// removedIn: lines removed after line n lie within from..to when
// from <= n < to (after its last line is past it).
func (l *lines) removedIn(from, to int) bool {
	i, _ := slices.BinarySearch(l.removed, from)
	return i < len(l.removed) && l.removed[i] < to
}
