// Package kubessa builds the SSA form of a package for ctrllint's
// analyzers, and only for packages that can use the Kubernetes APIs.
//
// It stands in for golang.org/x/tools/go/analysis/passes/buildssa, for
// two reasons that decide ctrllint's speed:
//
//   - buildssa builds every package it is run on. Most packages a
//     controller's module contains (and all of the standard library) cannot
//     see client-go, apimachinery or controller-runtime, so no analyzer can
//     report anything there; skipping them skips the most expensive step.
//   - buildssa requires ctrlflow, whose "never returns" facts make the
//     analysis framework run it on every dependency: under go vet that means
//     analysing all of client-go and apimachinery for every package. This
//     package uses no facts; it knows the exits of the standard library and
//     klog by name, and finds the package's own exit helpers itself.
//
// Drivers that run fact-using analyzers on every dependency (the checker,
// golangci-lint, nogo) reach the Kubernetes libraries themselves, where
// nothing is reported or summarised (summary.Library): nothing is built
// there either.
package kubessa

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/directive"
	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/lend"
)

// Analyzer builds SSA for packages that can see the Kubernetes APIs. Its
// result is a *SSA, nil for other packages.
var Analyzer = &analysis.Analyzer{
	Name:       "ctrllintssa",
	Doc:        "build SSA form for packages that can use the Kubernetes APIs (ctrllint's buildssa)",
	Run:        run,
	Requires:   []*analysis.Analyzer{lend.Analyzer},
	ResultType: reflect.TypeFor[*SSA](),
}

// SSA is the package's SSA form and its source functions (declared
// functions and methods, then their function literals, in source order).
type SSA struct {
	Pkg      *ssa.Package
	SrcFuncs []*ssa.Function
	// Checked are the SrcFuncs declared in files written by hand, in the
	// same order: the functions whose own findings are reported. A
	// function of a generated file (`// Code generated ... DO NOT EDIT.`
	// before the package clause, directive.IsGenerated) is fixed at its
	// generator, and Honour drops what is found there, so an analyzer's
	// per-function check, whose findings are positions in the function it
	// checks, iterates Checked. What an analyzer learns from a function
	// for the others (summaries, facts, roots, callers) still comes from
	// SrcFuncs: hand-written code calls generated code, and what the
	// generated code does decides findings there.
	Checked   []*ssa.Function
	generated map[string]bool
	lent      *lend.Program // until Release
}

// Generated reports whether fn is declared in a generated file of the
// package (see Checked).
func (s *SSA) Generated(fn *ssa.Function) bool {
	return s.generated[fileName(fn)]
}

func fileName(fn *ssa.Function) string {
	if fn.Prog == nil || !fn.Pos().IsValid() {
		return ""
	}
	if tf := fn.Prog.Fset.File(fn.Pos()); tf != nil {
		return tf.Name()
	}
	return ""
}

// Of returns the SSA result of the pass, nil when the package cannot use
// the Kubernetes APIs.
func Of(pass *analysis.Pass) *SSA {
	res, _ := pass.ResultOf[Analyzer].(*SSA)
	return res
}

func run(pass *analysis.Pass) (any, error) {
	if !SeesKubernetes(pass.Pkg) || summary.Library(pass) {
		return (*SSA)(nil), nil
	}
	var pool *lend.Programs
	if run := lend.Of(pass); run != nil {
		pool = run.Programs
	}
	lent := pool.Borrow(pass.Fset)
	prog := lent.Prog
	noReturn := localExits(pass)
	prog.SetNoReturn(func(fn *types.Func) bool { return noReturn[fn] || IsExit(fn) })
	for _, imp := range referenced(pass) {
		if prog.Package(imp) == nil { // not created for an earlier package
			prog.CreatePackage(imp, nil, nil, true)
		}
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()

	var funcs []*ssa.Function
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				if f := prog.FuncValue(obj); f != nil {
					add(f)
				}
			}
		}
	}
	res := &SSA{Pkg: pkg, SrcFuncs: funcs, generated: directive.GeneratedFiles(pass), lent: lent}
	res.Checked = funcs
	if len(res.generated) > 0 {
		res.Checked = make([]*ssa.Function, 0, len(funcs))
		for _, fn := range funcs {
			if !res.Generated(fn) {
				res.Checked = append(res.Checked, fn)
			}
		}
	}
	return res, nil
}

// Release implements lend.Releaser: nothing reads the package's SSA form
// any more, so its program may build another package of the run. Calling
// it again, or on the nil result of a package that cannot see the
// Kubernetes APIs, does nothing.
func (s *SSA) Release() {
	if s == nil || s.lent == nil {
		return
	}
	s.lent.Return()
	s.lent = nil
}

var _ lend.Releaser = (*SSA)(nil)

// kubePrefixes are the module paths whose packages ctrllint analyses code
// against.
var kubePrefixes = []string{"k8s.io/client-go/", "k8s.io/apimachinery/", "sigs.k8s.io/controller-runtime/"}

// SeesKubernetes reports whether pkg imports, directly or not, a package
// of client-go, apimachinery or controller-runtime.
func SeesKubernetes(pkg *types.Package) bool {
	seen := make(map[*types.Package]bool)
	var walk func(p *types.Package) bool
	walk = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, prefix := range kubePrefixes {
			if strings.HasPrefix(p.Path()+"/", prefix) {
				return true
			}
		}
		for _, imp := range p.Imports() {
			if walk(imp) {
				return true
			}
		}
		return false
	}
	return walk(pkg)
}

// referenced returns the imports whose package-level functions or
// variables the package's code names. go/ssa needs an SSA package for
// those; the methods of other imports' types it creates when they are
// called. Creating an import's SSA package allocates a function for every
// method of every type it declares (thousands in the API packages), and
// most imports are there for their types and constants, so creating every
// import was a large part of a cold run (docs/performance.md). The
// package initializer, the one other user of all imports (it
// calls their initializers), is built bare (ssa.BareInits).
func referenced(pass *analysis.Pass) []*types.Package {
	seen := make(map[*types.Package]bool)
	var out []*types.Package
	for _, obj := range pass.TypesInfo.Uses {
		switch obj.(type) {
		case *types.Func, *types.Var:
		default:
			continue
		}
		p := obj.Pkg()
		if p == nil || p == pass.Pkg || seen[p] || obj.Parent() != p.Scope() {
			continue // a method, a field, a local, or known already
		}
		seen[p] = true
		out = append(out, p)
	}
	// Map order must not decide the order packages are created in.
	slices.SortFunc(out, func(a, b *types.Package) int { return strings.Compare(a.Path(), b.Path()) })
	return out
}

// FromAPIReader reports whether v is a reader straight from a source of
// uncached readers (controller-runtime's GetAPIReader, client.New), looking
// through conversions and the client.New tuple.
func FromAPIReader(v ssa.Value) bool {
	call, ok := flow.Origin(v, flow.Conversions|flow.Extracts).(*ssa.Call)
	return ok && kube.IsAPIReaderSource(ssax.Callee(call.Common()))
}

// MetaObject is the object a value stands for: the pointer (or interface)
// behind conversions and the address of its embedded ObjectMeta, so that
// obj.DeletionTimestamp, obj.GetDeletionTimestamp() and
// controllerutil.RemoveFinalizer(obj, f) name the same value, also where
// a closure captures the variable holding it (a deferred patch helper).
func MetaObject(v ssa.Value) ssa.Value {
	for {
		v = flow.Origin(v, flow.Same)
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			return v
		}
		f := ssax.FieldOfAddr(fa)
		if f == nil || !f.Embedded() || !kube.Is(f.Type(), kube.MetaV1Pkg, "ObjectMeta") {
			return v
		}
		v = fa.X
	}
}

// MetaField returns the object (MetaObject) whose ObjectMeta field name v
// loads (obj.DeletionTimestamp, obj.ObjectMeta.Finalizers), or whose
// getter of that field v calls (obj.GetDeletionTimestamp()), or nil: the
// finalizer analyzer reads deletion checks with it, cachemutation tests of
// an empty resourceVersion.
func MetaField(v ssa.Value, field string) ssa.Value {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return nil
		}
		fa, ok := x.X.(*ssa.FieldAddr)
		if !ok {
			return nil
		}
		f := ssax.FieldOfAddr(fa)
		if f == nil || f.Name() != field || !kube.Is(fa.X.Type(), kube.MetaV1Pkg, "ObjectMeta") {
			return nil
		}
		return MetaObject(fa.X)
	case *ssa.Call:
		if fn := ssax.Callee(&x.Call); fn == nil || fn.Name() != "Get"+field {
			return nil
		}
		if recv := ssax.Receiver(&x.Call); recv != nil {
			return MetaObject(recv)
		}
	}
	return nil
}

// DeepCopyOf returns the receiver of a DeepCopy or DeepCopyObject call:
// conflictretry follows an object through its copies, cachemutation
// recognises a table of copies.
func DeepCopyOf(call *ssa.Call) (ssa.Value, bool) {
	fn, _, _ := ssax.MethodCall(call.Common())
	if fn == nil || fn.Name() != "DeepCopy" && fn.Name() != "DeepCopyObject" {
		return nil, false
	}
	return ssax.Receiver(call.Common()), true
}
