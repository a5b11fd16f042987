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
func Run(cfg *Config, pkgs []*packages.Package) (*Result, error) {
	if len(cfg.Analyzers) == 0 || len(pkgs) == 0 {
		return &Result{}, nil
	}
	wrapped, orig := guard(cfg.Analyzers, nil)
	graph, err := checker.Analyze(wrapped, pkgs, nil)
	if err != nil {
		return nil, err
	}

	res := &Result{}
	collect(res, graph, orig)
	finding.Sort(res.Findings)
	sortErrors(res.Errors)
	return res, nil
}
