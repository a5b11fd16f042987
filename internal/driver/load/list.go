package load

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/tools/go/packages"
)

// listMode is Packages' mode without type-checking: NeedExportFile makes the
// go command build the export data that type-checking the roots needs,
// NeedDeps gives the whole graph, so that the importer can offer the
// export data decoder every package it may mention.
const listMode = rootMode&^(packages.NeedTypes|packages.NeedSyntax|packages.NeedTypesInfo) |
	packages.NeedDeps | packages.NeedExportFile

// Listing is the streaming path's one go list: the roots, with the
// whole dependency graph and its export data reachable from them.
type Listing struct {
	Roots []*packages.Package
	Base  string // the go command's directory, absolute
	// Source are the IDs of the packages listed without export data
	// (split.go): their importers get their types from their own
	// type-check, through Deps.Provide. Those that are not roots are
	// type-checked for that alone (SourceDeps).
	Source map[string]bool
	// exports is where the dependencies type-checked from source leave
	// their export data (Options.ExportDir), nil if nowhere.
	exports *exports
}

// Sources says which packages of a listing are left without export
// data, their own type-check providing their types (Deps.Provide).
type Sources int

const (
	// NoSources lists every package with its export data, building
	// what is not built.
	NoSources Sources = iota
	// SourceRoots leaves out the roots that only roots depend on: a
	// re-run after an edit (split.go).
	SourceRoots
	// Unbuilt leaves out, besides, every package whose build output the
	// go command has not cached, and those depending on one (Built): a
	// first run on a machine that never built the graph compiles nothing.
	Unbuilt
)

// List lists opts.Patterns with their whole dependency graph and its
// export data (building what is not built, with NoSources), failing as
// Packages does when the go command fails or nothing matches.
func List(ctx context.Context, opts *Options, how Sources) (*Listing, error) {
	if how == NoSources {
		roots, err := list(opts.config(ctx, listMode), opts)
		if err != nil {
			return nil, err
		}
		return &Listing{Roots: roots, Base: opts.Base()}, nil
	}
	if how == SourceRoots {
		return listSplit(ctx, opts, nil)
	}
	if opts.FromSource {
		return listSplit(ctx, opts, func() map[string]bool { return map[string]bool{} })
	}
	var built map[string]bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Without it, only the roots are left out, as SourceRoots
		// does: the go command then says what is wrong, if anything.
		built, _ = Built(ctx, opts)
	}()
	return listSplit(ctx, opts, func() map[string]bool { <-done; return built })
}

// listSplit lists the graph without export data, and then the export
// data of what is not source (sourceOf), with built() (which may still
// be asking the go command while the graph is listed), nil for the
// source roots alone. When built() says what the go command has not
// built, the export data kept by earlier runs (Options.ExportDir) is
// looked up too.
func listSplit(ctx context.Context, opts *Options, built func() map[string]bool) (*Listing, error) {
	var x *exports
	opened := make(chan struct{})
	go func() {
		defer close(opened)
		if built != nil {
			x = openExports(ctx, opts)
		}
	}()
	roots, err := list(opts.config(ctx, splitMode), opts)
	var b map[string]bool
	if built != nil {
		b = built()
	}
	<-opened
	if err != nil {
		return nil, err
	}
	if b == nil {
		x = nil
	} else if !opts.FromSource {
		rememberUnbuilt(opts, anyUnbuiltDep(roots, b))
	}
	source := sourceOf(roots, b, opts.Overlay, x.has, opts.WholePackages)
	x.trim(time.Now())
	x.keepFor(roots, opts.WholePackages)
	if !addExportData(ctx, opts, roots, source, opts.WholePackages, x.file) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Listed as before, everything with export data.
		if roots, err = list(opts.config(ctx, listMode), opts); err != nil {
			return nil, err
		}
		source, x = nil, nil
	}
	return &Listing{Roots: roots, Base: opts.Base(), Source: source, exports: x}, nil
}

// keysMode lists the import graph and files without type-checking or
// compiling anything: what the result cache keys packages by.
const keysMode = packages.NeedName | packages.NeedFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedModule | packages.NeedForTest

// ListForKeys lists opts.Patterns with their dependency graph, without
// export data: a run over unchanged packages must not pay for building
// any. It fails when any package of the graph has errors.
func ListForKeys(ctx context.Context, opts *Options) ([]*packages.Package, error) {
	roots, err := list(opts.config(ctx, keysMode), opts)
	if err != nil {
		return nil, err
	}
	broken := false
	packages.Visit(roots, nil, func(p *packages.Package) { broken = broken || len(p.Errors) > 0 })
	if broken {
		return nil, fmt.Errorf("listing has errors")
	}
	return roots, nil
}
