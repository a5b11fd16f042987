package driver

import (
	"context"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// Load loads the packages matching cfg.Patterns, syntax and types
// included, ready for Run (load.Packages), with cfg.WholePackages decoded
// whole where they are in the graph, as Analyze decodes them.
func Load(ctx context.Context, cfg *Config) ([]*packages.Package, error) {
	opts := cfg.loadOptions()
	pkgs, err := load.Packages(ctx, opts)
	if cerr := load.CompleteScopes(ctx, opts, pkgs, cfg.WholePackages); cerr != nil {
		// What the analyzers would find in those scopes would depend on
		// which packages mention what: analyse nothing.
		return nil, &LoadError{Problems: []Problem{{Msg: "decoding " + strings.Join(cfg.WholePackages, ", ") + ": " + cerr.Error()}}}
	}
	return pkgs, err
}

// Run runs cfg.Analyzers over packages already loaded by Load with the
// same cfg. It is separate from Analyze so that callers that keep
// packages (the editor server, benchmarks) can re-run analyzers without
// reloading.
//
// The packages are analysed in dependency order, so that the facts of
// each reach the packages among pkgs that import it, as in Analyze; the
// packages Load did not load from source give none.
func Run(cfg *Config, pkgs []*packages.Package) (*Result, error) {
	if len(cfg.Analyzers) == 0 || len(pkgs) == 0 {
		return &Result{}, nil
	}
	facts := newFactViews()
	g := newGuarded(cfg.Analyzers, nil, facts, cfg.Overlay)
	units := planUnits(pkgs, nil, false, nil, nil)
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	graphs := make([]*checker.Graph, len(units))
	errs := make([]error, len(units))
	runUnits(context.Background(), units, order, func(i int) {
		pkg := units[i].pkg
		facts.open(pkg.Types, units[i].paths)
		graphs[i], errs[i] = checker.Analyze(g.wrapped, []*packages.Package{pkg}, nil)
		facts.close(pkg.Types)
	})
	res := &Result{}
	for i := range units {
		if errs[i] != nil {
			return nil, errs[i]
		}
		collect(res, graphs[i], g.orig)
	}
	finding.Sort(res.Findings)
	sortErrors(res.Errors)
	return res, nil
}
