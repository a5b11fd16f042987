package main

import (
	"testing"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/hack/internal/bugs"
)

// The checked-in benchmark loads, names analyzers ctrllint has, and has a
// subset for make test.
func TestBenchmarkFile(t *testing.T) {
	all, err := bugs.Load("realbugs.json")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, a := range analyzers.All() {
		names[a.Name] = true
	}
	ci := 0
	for _, b := range all {
		if !names[b.Analyzer] {
			t.Errorf("%s: no analyzer %q", b.Name, b.Analyzer)
		}
		if b.CI {
			ci++
		}
	}
	if ci == 0 {
		t.Error("no bug is marked ci: make test would run none")
	}
}
