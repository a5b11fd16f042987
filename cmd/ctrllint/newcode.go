package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctrllint/ctrllint/internal/baseline"
	"github.com/ctrllint/ctrllint/internal/driver"

	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/newcode"
)

// newCodeOptions are -new-from-rev and -new-from-merge-base.
type newCodeOptions struct {
	fromRev, fromMergeBase string
}

func (n *newCodeOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&n.fromRev, "new-from-rev", "", "report only the findings git revision `REV` does not have (the working tree, uncommitted and untracked files included, compared with REV)")
	fs.StringVar(&n.fromMergeBase, "new-from-merge-base", "", "report only the findings the merge base of `BRANCH` and HEAD does not have")
}

// check refuses both flags at once, and an empty revision, which would
// otherwise silently report everything.
func (n *newCodeOptions) check(fs *flag.FlagSet, stderr io.Writer) bool {
	ok, given := true, 0
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "new-from-rev" && f.Name != "new-from-merge-base" {
			return
		}
		given++
		if f.Value.String() == "" {
			fmt.Fprintf(stderr, "ctrllint: -%s needs a revision\n", f.Name)
			ok = false
		}
	})
	if given == 2 {
		fmt.Fprintln(stderr, "ctrllint: -new-from-rev and -new-from-merge-base cannot be used together")
		return false
	}
	return ok
}

// newCodeRun is a run with -new-from-rev or -new-from-merge-base: the
// changes since the revision, found before the analysis so that a bad
// revision fails at once.
type newCodeRun struct {
	flag    string // the flag given, for messages
	changes *newcode.Changes
}

// start finds the changes since the revision; nil when neither flag is
// given.
func (n *newCodeOptions) start(ctx context.Context, wd string) (*newCodeRun, error) {
	var (
		ch  *newcode.Changes
		err error
	)
	switch {
	case n.fromRev != "":
		if ch, err = newcode.FromRev(ctx, wd, n.fromRev); err != nil {
			return nil, fmt.Errorf("-new-from-rev %s: %v", n.fromRev, err)
		}
		return &newCodeRun{flag: "-new-from-rev", changes: ch}, nil
	case n.fromMergeBase != "":
		if ch, err = newcode.FromMergeBase(ctx, wd, n.fromMergeBase); err != nil {
			return nil, fmt.Errorf("-new-from-merge-base %s: %v", n.fromMergeBase, err)
		}
		return &newCodeRun{flag: "-new-from-merge-base", changes: ch}, nil
	}
	return nil, nil
}

// keeper returns what keeps the findings that new code brings: those the
// revision does not have, matched as a baseline matches (file, function,
// analyzer, message and line of code; renamed files followed). analyse
// runs the same analysis in another directory; the revision's tree is
// written under keep (see newcode.Changes.Revision). The revision is
// analysed at the first call with findings to judge: a run that finds
// nothing costs nothing more. When the revision cannot be analysed in
// full, the findings in changed code are kept instead (Changes.Keep), and
// the reason is told on stderr. With r nil, every finding is kept.
func (r *newCodeRun) keeper(wd, keep string, analyse func(dir string) (*driver.Result, error), stderr io.Writer) func([]finding.Finding) []finding.Finding {
	if r == nil {
		return func(fs []finding.Finding) []finding.Finding { return fs }
	}
	var judge func([]finding.Finding) []finding.Finding
	return func(fs []finding.Finding) []finding.Finding {
		if len(fs) == 0 {
			return nil
		}
		if judge == nil {
			judge = r.compare(wd, keep, analyse, stderr)
		}
		return judge(fs)
	}
}

// compare analyses the revision and returns what keeps the findings it
// does not have.
func (r *newCodeRun) compare(wd, keep string, analyse func(dir string) (*driver.Result, error), stderr io.Writer) func([]finding.Finding) []finding.Finding {
	fallback := func(why string) func([]finding.Finding) []finding.Finding {
		fmt.Fprintf(stderr, "ctrllint: %s: %s; reporting the findings in changed code instead\n", r.flag, why)
		return r.changes.Keep
	}
	rev, err := r.changes.Revision(keep)
	if err != nil {
		return fallback(fmt.Sprintf("the revision's files cannot be written: %v", err))
	}
	defer rev.Close()
	rel, err := filepath.Rel(r.changes.Root(), resolved(wd))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fallback(fmt.Sprintf("%s is not inside the repository %s", wd, r.changes.Root()))
	}
	dir := filepath.Join(rev.Root, rel)
	created := false
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		// The directory is new since the revision: the patterns, relative
		// to it, may still name packages the revision has (../...).
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fallback(err.Error())
		}
		created = true
	}
	res, err := analyse(dir)
	var loadErr *driver.LoadError
	switch {
	case err != nil && created:
		// Nothing the patterns name was there: every finding is new.
		return func(fs []finding.Finding) []finding.Finding { return inRepo(r.changes, fs) }
	case errors.As(err, &loadErr):
		return fallback(fmt.Sprintf("the revision %s does not load in full (%v)", short(rev.Commit), loadErr))
	case err != nil:
		return fallback(fmt.Sprintf("analysing the revision %s: %v", short(rev.Commit), err))
	case len(res.Errors) > 0:
		return fallback(fmt.Sprintf("analysing the revision %s: %v", short(rev.Commit), res.Errors[0]))
	}
	entries, err := baseline.Build(rev.Root, res.Findings)
	if err != nil {
		return fallback(fmt.Sprintf("reading the revision's findings: %v", err))
	}
	for i, e := range entries {
		if to, ok := rev.Renamed[e.File]; ok {
			entries[i].File = to
		}
	}
	old := baseline.Of(r.changes.Root(), entries)
	return func(fs []finding.Finding) []finding.Finding {
		fs = inRepo(r.changes, fs)
		m, err := old.Match(fs)
		if err != nil {
			// A file changed since it was analysed: judge by the lines.
			return r.changes.Keep(fs)
		}
		var out []finding.Finding
		for i, f := range fs {
			if !m.Baselined[i] {
				out = append(out, f)
			}
		}
		return out
	}
}

// inRepo drops the findings in files outside the repository, which no
// revision of it has: as Changes.Keep does.
func inRepo(c *newcode.Changes, fs []finding.Finding) []finding.Finding {
	var out []finding.Finding
	for _, f := range fs {
		if f.Pos.File == "" || c.Inside(f.Pos.File) {
			out = append(out, f)
		}
	}
	return out
}

// resolved is dir with symbolic links resolved, as the repository's top
// level is.
func resolved(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return dir
}

// short is a commit's abbreviation, for messages.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
