// Package lend is the agreement by which the driver lends analyzers what
// outlives one package, and takes it back.
//
// An analyzer is a function of its pass: it keeps nothing between packages
// itself. What is worth sharing between the packages of one run (today,
// the SSA programs that hold the imports' SSA packages) belongs to the
// run, so the driver owns it and hands it in through Analyzer's result;
// so does what analyzers tell the run rather than the user's code (the
// bounds they reached, limits.go).
// Front ends that do not (go vet, the golangci-lint plugin, the editor
// server) run Analyzer as it is, which hands in nothing, and every package
// then builds what it needs afresh.
package lend

import (
	"reflect"

	"golang.org/x/tools/go/analysis"
)

// Analyzer's result is the run's *Run, or nil when the front end lends
// nothing. Analyzers that borrow require it; the driver replaces its Run.
var Analyzer = &analysis.Analyzer{
	Name:       "ctrllintlend",
	Doc:        "hand the driver's per-run state to analyzers (nil when run without ctrllint's driver)",
	Run:        func(*analysis.Pass) (any, error) { return (*Run)(nil), nil },
	ResultType: reflect.TypeFor[*Run](),
}

// A Releaser is an analysis result holding something borrowed from the
// run. The driver calls Release once every analyzer of the package is
// done with the result, so the next package can reuse what it holds.
// Release must be safe to call twice and on a nil result.
type Releaser interface{ Release() }

// Run is what one run of the driver lends its analyzers.
type Run struct {
	Programs *Programs
	Limits   *Limits // the bounds analyzers reached (LimitHit)
}

// NewRun returns the state of a new run.
func NewRun() *Run { return &Run{Programs: new(Programs), Limits: new(Limits)} }

// Of returns the run's state lent to pass, nil if none.
func Of(pass *analysis.Pass) *Run {
	r, _ := pass.ResultOf[Analyzer].(*Run)
	return r
}
