package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Verdicts and statuses of triage.json.
const (
	truePositive  = "true positive"
	falsePositive = "false positive"

	statusReported = "reported"         // a true positive: ctrllint reports it
	statusFixed    = "fixed"            // a false positive an analyzer change removed
	statusKnown    = "known limitation" // a false positive still reported, with the reason
)

// A verdict is one triaged finding.
type verdict struct {
	finding
	Verdict string `json:"verdict"`
	Status  string `json:"status"`
	// Reason says why the verdict holds: for a true positive, what is wrong
	// in the code; for a false positive, why the code is right.
	Reason string `json:"reason"`
	// Consequence is what a true positive costs that controller.
	Consequence string `json:"consequence,omitempty"`
	// Change is the analyzer change that removed a false positive, or why
	// none can.
	Change string `json:"change,omitempty"`
}

func (v verdict) expected() bool { return v.Status != statusFixed }

type triage struct {
	Verdicts []verdict `json:"findings"`
}

func loadTriage(file string) (*triage, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var t triage
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	seen := map[string]bool{}
	for i, v := range t.Verdicts {
		at := fmt.Sprintf("%s: finding %d (%s %s:%d)", file, i+1, v.Analyzer, v.File, v.Line)
		switch {
		case v.Entry == "" || v.Analyzer == "" || v.File == "" || v.Line == 0 || v.Message == "":
			return nil, fmt.Errorf("%s: entry, analyzer, file, line and message are required", at)
		case v.Reason == "":
			return nil, fmt.Errorf("%s: a verdict needs its reason", at)
		case v.Verdict == truePositive && v.Status != statusReported:
			return nil, fmt.Errorf("%s: a true positive has status %q", at, statusReported)
		case v.Verdict == truePositive && v.Consequence == "":
			return nil, fmt.Errorf("%s: a true positive needs its consequence", at)
		case v.Verdict == falsePositive && v.Status != statusFixed && v.Status != statusKnown:
			return nil, fmt.Errorf("%s: a false positive has status %q or %q", at, statusFixed, statusKnown)
		case v.Verdict == falsePositive && v.Change == "":
			return nil, fmt.Errorf("%s: a false positive needs the change that removes it (or why none can)", at)
		case v.Verdict != truePositive && v.Verdict != falsePositive:
			return nil, fmt.Errorf("%s: verdict %q is neither %q nor %q", at, v.Verdict, truePositive, falsePositive)
		case seen[v.Key()]:
			return nil, fmt.Errorf("%s: triaged twice", at)
		}
		seen[v.Key()] = true
	}
	return &t, nil
}

// A diff is where a corpus run and the triage disagree.
type diff struct {
	untriaged   []finding // reported, never triaged
	regressed   []verdict // fixed false positives reported again
	disappeared []verdict // expected, not reported
	failures    []result  // runs that crashed
}

func (d diff) ok() bool {
	return len(d.untriaged)+len(d.regressed)+len(d.disappeared)+len(d.failures) == 0
}

// compare checks the results of the named entries against the triage.
func compare(t *triage, results []result, entries map[string]bool) diff {
	var d diff
	byKey := map[string]verdict{}
	for _, v := range t.Verdicts {
		byKey[v.Key()] = v
	}
	reported := map[string]bool{}
	for _, r := range results {
		if r.Failure != "" {
			d.failures = append(d.failures, r)
		}
		for _, f := range r.Findings {
			reported[f.Key()] = true
			v, ok := byKey[f.Key()]
			switch {
			case !ok:
				d.untriaged = append(d.untriaged, f)
			case !v.expected():
				d.regressed = append(d.regressed, v)
			}
		}
	}
	for _, v := range t.Verdicts {
		if entries[v.Entry] && v.expected() && !reported[v.Key()] {
			// A failed run reports nothing; its failure is the news.
			failed := false
			for _, r := range d.failures {
				failed = failed || r.Entry == v.Entry
			}
			if !failed {
				d.disappeared = append(d.disappeared, v)
			}
		}
	}
	return d
}

func (d diff) print(w io.Writer, results []result) {
	fmt.Fprintf(w, "%-22s %8s %9s %8s %8s\n", "entry", "packages", "findings", "seconds", "peak MB")
	for _, r := range results {
		fmt.Fprintf(w, "%-22s %8d %9d %8.1f %8d\n", r.Entry, r.Packages, len(r.Findings), r.Seconds, r.PeakMB)
	}
	for _, r := range d.failures {
		fmt.Fprintf(w, "\nFAILED %s: %s\n%s\n", r.Entry, r.Failure, tail(r.Stderr, 40))
	}
	for _, f := range d.untriaged {
		fmt.Fprintf(w, "\nNEW (not in triage.json):\n%s\n", mustJSON(verdict{finding: f, Verdict: "?", Status: "?", Reason: "?"}))
	}
	for _, v := range d.regressed {
		fmt.Fprintf(w, "\nREGRESSED (a fixed false positive is reported again): %s %s:%d %s\n", v.Analyzer, v.File, v.Line, v.Message)
	}
	for _, v := range d.disappeared {
		fmt.Fprintf(w, "\nDISAPPEARED (triaged as %s, no longer reported): %s %s:%d %s\n", v.Verdict, v.Analyzer, v.File, v.Line, v.Message)
	}
	if d.ok() {
		fmt.Fprintln(w, "\nthe corpus report matches hack/corpus/triage.json")
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func mustJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(b)
}

// writeReports writes every finding (report.json) and a summary with the
// findings one per line (report.txt) into the cache.
func writeReports(cache string, results []result) error {
	if err := os.WriteFile(filepath.Join(cache, "report.json"), []byte(mustJSON(results)+"\n"), 0o644); err != nil {
		return err
	}
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "# %s %s: %d packages, %d findings, exit %d, %.1fs, %d MB peak\n", r.Entry, r.Version, r.Packages, len(r.Findings), r.Exit, r.Seconds, r.PeakMB)
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "%s:%d: %s (%s)\n", f.File, f.Line, f.Message, f.Analyzer)
		}
	}
	return os.WriteFile(filepath.Join(cache, "report.txt"), []byte(b.String()), 0o644)
}
