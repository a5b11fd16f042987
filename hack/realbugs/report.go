package main

import (
	"fmt"
	"strings"

	"github.com/ctrllint/ctrllint/hack/internal/bugs"
)

// summarise prints each bug's outcome, what differs from the record, and
// the recall per analyzer that this run observed.
func summarise(outcomes []outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-44s %-18s %-9s %-9s %s\n", "bug", "analyzer", "buggy", "fixed", "")
	observed := make([]bugs.Bug, 0, len(outcomes))
	for _, o := range outcomes {
		buggy, fixed, note := "missed", "clean", ""
		if o.detected() {
			buggy = "found"
		}
		if len(o.fixed) > 0 {
			fixed = "REPORTED"
		}
		switch {
		case o.failure != "":
			buggy, fixed, note = "-", "-", "FAILED"
		case o.detected() && !o.bug.Detected:
			note = "NEWLY FOUND: record detected: true in realbugs.json"
		case !o.detected() && o.bug.Detected:
			note = "NO LONGER FOUND"
		case len(o.fixed) > 0:
			note = "FIXED VERSION REPORTED"
		}
		fmt.Fprintf(&b, "%-44s %-18s %-9s %-9s %s\n", o.bug.Name, o.bug.Analyzer, buggy, fixed, note)
		x := o.bug
		x.Detected = o.detected()
		observed = append(observed, x)
	}
	for _, o := range outcomes {
		if o.ok() {
			continue
		}
		fmt.Fprintf(&b, "\n%s (%s %s..%s, %s %s):\n", o.bug.Name, o.bug.Module, o.bug.Buggy, o.bug.Fixed, o.bug.File, o.bug.Function)
		if o.failure != "" {
			fmt.Fprintf(&b, "  %s\n", strings.Join(head(strings.Split(strings.TrimSpace(o.failure), "\n"), 12), "\n  "))
		}
		for _, f := range o.fixed {
			fmt.Fprintf(&b, "  at the fixed version: %s:%d: %s\n", f.File, f.Line, f.Message)
		}
	}
	b.WriteString("\nrecall on these bugs (this run):\n")
	for _, r := range bugs.Recalls(observed) {
		fmt.Fprintf(&b, "  %-18s %s\n", r.Analyzer, r)
	}
	return b.String()
}

func failed(outcomes []outcome) int {
	n := 0
	for _, o := range outcomes {
		if !o.ok() {
			n++
		}
	}
	return n
}

// head keeps a failure's first lines: a module that does not resolve
// fails every package the same way.
func head(lines []string, n int) []string {
	if len(lines) <= n {
		return lines
	}
	return append(lines[:n:n], fmt.Sprintf("... (%d more lines)", len(lines)-n))
}
