package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/newcode"
)

// newCodeOptions are -new-from-rev and -new-from-merge-base.
type newCodeOptions struct {
	fromRev, fromMergeBase string
}

func (n *newCodeOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&n.fromRev, "new-from-rev", "", "report only findings in code changed since git revision `REV` (uncommitted and untracked files count as changed)")
	fs.StringVar(&n.fromMergeBase, "new-from-merge-base", "", "report only findings in code changed since the merge base of `BRANCH` and HEAD")
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

// filter returns what keeps only the findings in new code, or a function
// that keeps them all when neither flag is given. It runs git now, before
// the analysis, so that a bad revision fails at once.
func (n *newCodeOptions) filter(ctx context.Context, wd string) (func([]finding.Finding) []finding.Finding, error) {
	var (
		ch  *newcode.Changes
		err error
	)
	switch {
	case n.fromRev != "":
		if ch, err = newcode.FromRev(ctx, wd, n.fromRev); err != nil {
			return nil, fmt.Errorf("-new-from-rev %s: %v", n.fromRev, err)
		}
	case n.fromMergeBase != "":
		if ch, err = newcode.FromMergeBase(ctx, wd, n.fromMergeBase); err != nil {
			return nil, fmt.Errorf("-new-from-merge-base %s: %v", n.fromMergeBase, err)
		}
	default:
		return func(fs []finding.Finding) []finding.Finding { return fs }, nil
	}
	return ch.Keep, nil
}
