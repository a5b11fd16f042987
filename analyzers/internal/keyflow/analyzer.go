package keyflow

import (
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
)

// Analyzer finds a package's work-queue Gets once for every analyzer that
// follows keys from them (queuedone, forget, tombstone, and eventpath's
// worker roots). Its result is a *Package, nil where kubessa built no SSA.
var Analyzer = &analysis.Analyzer{
	Name:       "ctrllintkeys",
	Doc:        "find the work-queue Gets of a package's SSA form once for ctrllint's analyzers",
	Run:        run,
	Requires:   []*analysis.Analyzer{kubessa.Analyzer},
	ResultType: reflect.TypeFor[*Package](),
}

// Package is one package's Gets. The analyzers of a package run
// concurrently and share it: its items are found once, on first use, so
// a package whose analyzers all bail out early pays nothing, and are read
// only. The memoised summaries of a walk depend on its rule and stay in
// each analyzer's own Analysis.
type Package struct {
	pkg   *ssa.Package
	funcs []*ssa.Function
	once  sync.Once
	items []*Item
}

// Of returns pass's *Package, nil when the package has no SSA form.
func Of(pass *analysis.Pass) *Package {
	p, _ := pass.ResultOf[Analyzer].(*Package)
	return p
}

func run(pass *analysis.Pass) (any, error) {
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return (*Package)(nil), nil
	}
	return NewPackage(ssaRes.Pkg, ssaRes.SrcFuncs), nil
}

// NewPackage returns the Gets of pkg's source functions funcs, for a
// caller without a pass.
func NewPackage(pkg *ssa.Package, funcs []*ssa.Function) *Package {
	return &Package{pkg: pkg, funcs: funcs}
}

// Items are the Gets of the package's source functions, in the order of
// the functions (see Gets). Callers must not modify them.
func (p *Package) Items() []*Item {
	p.once.Do(func() { p.items = gets(p.funcs) })
	return p.items
}

// Analysis returns a fresh analysis of the package: its memoised
// summaries belong to one analyzer.
func (p *Package) Analysis() *Analysis { return New(p.pkg) }
