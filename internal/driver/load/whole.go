package load

import (
	"context"
	"go/types"
	"slices"

	"golang.org/x/tools/go/packages"
)

// CompleteScopes decodes whole the packages of pkgs' type graph whose
// paths are in whole and which go/packages knows only from what other
// packages' export data mention: their scopes then hold only that. An
// analyzer that reads such a scope (Config.WholePackages in the driver)
// must see all of it, on this path as on the streaming one (DecodePlan
// decodes them whole), or what it finds depends on how the package was
// reached. pkgs must not be analysed while this runs.
func CompleteScopes(ctx context.Context, opts *Options, pkgs []*packages.Package, whole []string) error {
	if len(whole) == 0 || len(pkgs) == 0 {
		return nil
	}
	// One view of the graph by path, as go/packages decodes it: a path
	// the type graph names twice (a test's recompiled variant) is left
	// alone, as its export data cannot say which one it fills in.
	view := make(map[string]*types.Package)
	ambiguous := make(map[string]bool)
	var visit func(t *types.Package)
	visit = func(t *types.Package) {
		if old, ok := view[t.Path()]; ok {
			if old != t {
				ambiguous[t.Path()] = true
			}
			return
		}
		view[t.Path()] = t
		for _, imp := range t.Imports() {
			visit(imp)
		}
	}
	for _, p := range pkgs {
		if p.Types != nil {
			visit(p.Types)
		}
	}
	var paths []string
	for _, path := range whole {
		if t := view[path]; t != nil && !t.Complete() && !ambiguous[path] {
			paths = append(paths, path)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	slices.Sort(paths)
	listed, err := packages.Load(opts.config(ctx, packages.NeedName|packages.NeedExportFile), paths...)
	if err != nil {
		return err
	}
	fset := pkgs[0].Fset
	for _, p := range listed {
		if view[p.PkgPath] == nil || p.ExportFile == "" {
			continue
		}
		if err := readExport(fset, view, p); err != nil {
			return err
		}
	}
	return nil
}
