package define_test

import (
	"flag"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
)

const doc = `// Package x is a test analyzer.
//
// # Analyzer x
//
// x: report nothing
//
// Why.
//
// # Wrong
//
// # Right
//
// # Fix
//
// # Suppress
//
// # Not reported
package x
`

func run(*analysis.Pass) (any, error) { return nil, nil }

func TestNewDerivesDocAndURL(t *testing.T) {
	d := define.New(define.Spec{Name: "x", RuleName: "ReportsNothing", DocSource: doc, Run: run, Scopes: []string{"k8s.io/client-go/tools/cache"}})
	a := d.Analyzer
	if a.Name != "x" || !strings.HasPrefix(a.Doc, "report nothing") || a.URL != define.DocBaseURL+"x.md" {
		t.Errorf("analyzer %q, doc %q, URL %q", a.Name, a.Doc, a.URL)
	}
	if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
		t.Error(err)
	}
	if got := d.Scopes(); len(got) != 1 || got[0] != "k8s.io/client-go/tools/cache" {
		t.Errorf("Scopes() = %v", got)
	}
	if d.HasOptions() {
		t.Error("HasOptions() without Options")
	}
	if d.RuleName() != "ReportsNothing" {
		t.Errorf("RuleName() = %q", d.RuleName())
	}
}

// Each instance of an analyzer with options has flags of its own.
func TestNewInstancesHaveTheirOwnOptions(t *testing.T) {
	var seen []bool
	d := define.New(define.Spec{Name: "x", RuleName: "ReportsNothing", DocSource: doc, Options: func(fs *flag.FlagSet) define.RunFunc {
		on := fs.Bool("on", false, "")
		return func(*analysis.Pass) (any, error) { seen = append(seen, *on); return nil, nil }
	}})
	fresh := d.New()
	if err := fresh.Flags.Set("on", "true"); err != nil {
		t.Fatal(err)
	}
	if !d.HasOptions() {
		t.Error("HasOptions() = false")
	}
	pass := &analysis.Pass{Report: func(analysis.Diagnostic) {}}
	d.Analyzer.Run(pass)
	fresh.Run(pass)
	if len(seen) != 2 || seen[0] || !seen[1] {
		t.Errorf("runs saw on = %v, want [false true]", seen)
	}
}

func TestNewRejectsIncompleteSpecs(t *testing.T) {
	for name, spec := range map[string]define.Spec{
		"no name":         {RuleName: "ReportsNothing", DocSource: doc, Run: run},
		"no run":          {Name: "x", RuleName: "ReportsNothing", DocSource: doc},
		"run and options": {Name: "x", RuleName: "ReportsNothing", DocSource: doc, Run: run, Options: func(*flag.FlagSet) define.RunFunc { return run }},
		"no doc":          {Name: "x", RuleName: "ReportsNothing", Run: run},
		// SARIF validators warn of a rule name equal to the id in any case.
		"no rule name":             {Name: "x", DocSource: doc, Run: run},
		"rule name is the name":    {Name: "x", RuleName: "X", DocSource: doc, Run: run},
		"rule name not PascalCase": {Name: "x", RuleName: "reports-nothing", DocSource: doc, Run: run},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("New did not panic")
				}
			}()
			define.New(spec)
		})
	}
}
