package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/baseline"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// checkBaselineFlags refuses the combinations whose meaning would be a
// guess, before anything is loaded.
func checkBaselineFlags(fs *flag.FlagSet, o *options, stderr io.Writer) error {
	empty := ""
	fs.Visit(func(f *flag.Flag) {
		if (f.Name == "baseline" || f.Name == "baseline-write") && f.Value.String() == "" {
			empty = f.Name
		}
	})
	switch {
	case empty != "":
		// -baseline= would otherwise report every finding, as if no
		// baseline had been asked for.
		fmt.Fprintf(stderr, "ctrllint: -%s needs a file name\n", empty)
		return errUsage
	case o.baseline != "" && o.baselineWrite != "":
		fmt.Fprintln(stderr, "ctrllint: -baseline and -baseline-write cannot be used together (to update a baseline, run with -baseline-write alone)")
		return errUsage
	case o.baselineWrite != "" && (o.newCode.fromRev != "" || o.newCode.fromMergeBase != ""):
		// A baseline records every finding: one of the changed code only
		// would report the others as new on the next run.
		fmt.Fprintln(stderr, "ctrllint: -baseline-write records every finding, and cannot be used with -new-from-rev or -new-from-merge-base")
		return errUsage
	case o.fix && o.baselineWrite != "":
		// The entries hash the code as it is before the fixes, which
		// would be gone from the files once written.
		fmt.Fprintln(stderr, "ctrllint: -fix and -baseline-write cannot be used together (run -fix first, then -baseline-write)")
		return errUsage
	}
	return nil
}

// baselineRun is -baseline FILE or -baseline-write FILE in one run; nil
// when neither is given (its methods then change nothing).
type baselineRun struct {
	arg   string // FILE as given
	path  string // FILE, a relative one taken from the working directory (-C)
	write bool
	read  *baseline.Baseline

	baselined []finding.Finding // the findings the baseline holds
	gone      []baseline.Entry
}

// openBaseline reads the -baseline file, or checks that the
// -baseline-write file can be written where it is asked for, before the
// run: a typo must cost seconds, not a whole analysis.
func openBaseline(o *options, wd string) (*baselineRun, error) {
	arg, write := o.baseline, false
	if o.baselineWrite != "" {
		arg, write = o.baselineWrite, true
	}
	if arg == "" {
		return nil, nil
	}
	b := &baselineRun{arg: arg, path: arg, write: write}
	if !filepath.IsAbs(arg) {
		b.path = filepath.Join(wd, arg)
	}
	if write {
		if st, err := os.Stat(b.path); err == nil && st.IsDir() {
			return nil, fmt.Errorf("-baseline-write: %s is a directory", arg)
		}
		if st, err := os.Stat(filepath.Dir(b.path)); err != nil {
			return nil, fmt.Errorf("-baseline-write: %v", err)
		} else if !st.IsDir() {
			return nil, fmt.Errorf("-baseline-write: %s is not a directory", filepath.Dir(b.path))
		}
		return b, nil
	}
	var err error
	if b.read, err = baseline.Read(b.path); err != nil {
		return nil, fmt.Errorf("-baseline: %v", err)
	}
	return b, nil
}

// split returns the findings to report: those the baseline does not
// hold, of those the ones keep keeps (-new-from-rev); it keeps the
// baselined ones keep keeps for SARIF. It runs before -fix, so that only
// reported findings are fixed and code lines are hashed as analysed.
// The baseline is matched against every finding, before keep: a
// baselined finding outside the changed code still occurs.
func (b *baselineRun) split(findings []finding.Finding, keep func([]finding.Finding) []finding.Finding) ([]finding.Finding, error) {
	if b == nil || b.read == nil {
		return keep(findings), nil
	}
	m, err := b.read.Match(findings)
	if err != nil {
		return nil, fmt.Errorf("-baseline: %v", err)
	}
	var fresh, old []finding.Finding
	for i, f := range findings {
		if m.Baselined[i] {
			old = append(old, f)
		} else {
			fresh = append(fresh, f)
		}
	}
	b.baselined = keep(old)
	b.gone = m.Gone
	return keep(fresh), nil
}

// goneNote says how many baseline entries no longer occur, "" for none.
// Only entries the run could have found count: those of enabled
// analyzers, and of _test.go files only when tests were analysed. It is
// "" when the run had problems, whose packages' entries would all look
// fixed.
func (b *baselineRun) goneNote(enabled []*analysis.Analyzer, tests bool, problems []string) string {
	if b == nil || b.read == nil || len(problems) > 0 {
		return ""
	}
	n := 0
	for _, e := range b.gone {
		if !slices.ContainsFunc(enabled, func(a *analysis.Analyzer) bool { return a.Name == e.Analyzer }) {
			continue
		}
		if !tests && strings.HasSuffix(e.File, "_test.go") {
			continue
		}
		n += e.Count
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d baseline findings no longer occur; rewrite the baseline with -baseline-write %s", n, b.arg)
}

// writeBaseline is the end of a -baseline-write run: it writes the file
// unless the run was incomplete, and returns the exit status.
func (b *baselineRun) writeBaseline(findings []finding.Finding, problems []string, stderr io.Writer) int {
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "ctrllint: -baseline-write: %s not written: the run had errors (above), and a baseline of it would miss their findings\n", b.arg)
		return exitError
	}
	entries, err := baseline.Write(b.path, findings)
	if err != nil {
		fmt.Fprintf(stderr, "ctrllint: -baseline-write: writing %s: %v\n", b.arg, err)
		return exitError
	}
	fmt.Fprintf(stderr, "ctrllint: wrote %d findings (%d entries) to %s\n", len(findings), len(entries), b.arg)
	return exitClean
}

// sarifFindings are the findings a SARIF log of the run holds, and the
// baselineState of each (nil without -baseline): the reported findings
// are "new", and the baselined ones are included as "unchanged", which is
// how code scanning and other SARIF viewers read a run against a
// baseline.
func (b *baselineRun) sarifFindings(findings []finding.Finding) ([]finding.Finding, []string) {
	if b == nil || b.read == nil {
		return findings, nil
	}
	old := make(map[string]bool, len(b.baselined))
	for _, f := range b.baselined {
		old[finding.Key(f)] = true
	}
	all := append(slices.Clone(findings), b.baselined...)
	finding.Sort(all)
	states := make([]string, len(all))
	for i, f := range all {
		states[i] = "new"
		if old[finding.Key(f)] {
			states[i] = "unchanged"
		}
	}
	return all, states
}

// relocate moves the baselined findings, which SARIF reports as
// "unchanged", to their places in the files -fix wrote.
func (b *baselineRun) relocate(plan *finding.FixPlan) {
	if b == nil {
		return
	}
	for i, f := range b.baselined {
		b.baselined[i] = plan.Relocate(f)
	}
}

// nonEmpty is the list of s, none when s is "".
func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
