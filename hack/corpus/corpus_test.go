package main

import (
	"github.com/ctrllint/ctrllint/hack/internal/bugs"
	"os"
	"path/filepath"
	"testing"
)

// The checked-in corpus description and triage load, and docs/corpus.md
// and the README's precision block are what they render to.
func TestDocsUpToDate(t *testing.T) {
	cfg, err := loadConfig("corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	tri, err := loadTriage("triage.json")
	if err != nil {
		t.Fatal(err)
	}
	real, err := bugs.Load(realbugsFile())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "docs", "corpus.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != render(cfg, tri, real) {
		t.Errorf("docs/corpus.md is stale: run make corpus-docs")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if updated, err := withPrecision(string(readme), tri, real); err != nil {
		t.Error(err)
	} else if updated != string(readme) {
		t.Errorf("README.md's precision table is stale: run make corpus-docs")
	}
	for _, v := range tri.Verdicts {
		if _, ok := cfg.entry(v.Entry); !ok {
			t.Errorf("triage.json: %s %s:%d names entry %q, which corpus.json lacks", v.Analyzer, v.File, v.Line, v.Entry)
		}
	}
}

func TestCompare(t *testing.T) {
	f := func(entry, file string, line int) finding {
		return finding{Entry: entry, Analyzer: "tombstone", File: file, Line: line, Message: "m"}
	}
	tri := &triage{Verdicts: []verdict{
		{finding: f("k", "a.go", 1), Verdict: truePositive, Status: statusReported},
		{finding: f("k", "b.go", 2), Verdict: falsePositive, Status: statusFixed},
		{finding: f("k", "c.go", 3), Verdict: falsePositive, Status: statusKnown},
		{finding: f("other", "d.go", 4), Verdict: truePositive, Status: statusReported},
	}}
	run := []result{{Entry: "k", Findings: []finding{f("k", "a.go", 1), f("k", "b.go", 2), f("k", "e.go", 5)}}}
	d := compare(tri, run, map[string]bool{"k": true})
	if len(d.untriaged) != 1 || d.untriaged[0].File != "e.go" {
		t.Errorf("untriaged = %v, want e.go", d.untriaged)
	}
	if len(d.regressed) != 1 || d.regressed[0].File != "b.go" {
		t.Errorf("regressed = %v, want b.go", d.regressed)
	}
	if len(d.disappeared) != 1 || d.disappeared[0].File != "c.go" {
		t.Errorf("disappeared = %v, want c.go (d.go's entry did not run)", d.disappeared)
	}
	if d.ok() {
		t.Error("a differing run compares ok")
	}
	clean := []result{{Entry: "k", Findings: []finding{f("k", "a.go", 1), f("k", "c.go", 3)}}}
	if d := compare(tri, clean, map[string]bool{"k": true}); !d.ok() {
		t.Errorf("the triaged findings compare as %+v", d)
	}
	crashed := []result{{Entry: "k", Failure: "ctrllint exited 2"}}
	d = compare(tri, crashed, map[string]bool{"k": true})
	if d.ok() || len(d.failures) != 1 || len(d.disappeared) != 0 {
		t.Errorf("a crashed run: %+v, want one failure and nothing else", d)
	}
}

func TestLoadTriageRejects(t *testing.T) {
	for name, body := range map[string]string{
		"no reason":        `{"findings":[{"entry":"k","analyzer":"a","file":"f","line":1,"message":"m","verdict":"true positive","status":"reported","consequence":"c"}]}`,
		"tp no cons":       `{"findings":[{"entry":"k","analyzer":"a","file":"f","line":1,"message":"m","verdict":"true positive","status":"reported","reason":"r"}]}`,
		"fp no change":     `{"findings":[{"entry":"k","analyzer":"a","file":"f","line":1,"message":"m","verdict":"false positive","status":"fixed","reason":"r"}]}`,
		"fp bad status":    `{"findings":[{"entry":"k","analyzer":"a","file":"f","line":1,"message":"m","verdict":"false positive","status":"reported","reason":"r","change":"c"}]}`,
		"bad verdict":      `{"findings":[{"entry":"k","analyzer":"a","file":"f","line":1,"message":"m","verdict":"maybe","status":"reported","reason":"r"}]}`,
		"unknown field":    `{"findings":[{"entry":"k","analyzer":"a","file":"f","line":1,"message":"m","verdict":"true positive","status":"reported","reason":"r","consequence":"c","oops":1}]}`,
		"missing position": `{"findings":[{"entry":"k","analyzer":"a","file":"f","message":"m","verdict":"true positive","status":"reported","reason":"r","consequence":"c"}]}`,
		"twice": `{"findings":[{"entry":"k","analyzer":"a","file":"f","line":1,"message":"m","verdict":"true positive","status":"reported","reason":"r","consequence":"c"},
			{"entry":"k","analyzer":"a","file":"f","line":1,"message":"m","verdict":"true positive","status":"reported","reason":"r","consequence":"c"}]}`,
	} {
		file := filepath.Join(t.TempDir(), "triage.json")
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := loadTriage(file); err == nil {
			t.Errorf("%s: loadTriage accepted it", name)
		}
	}
}
