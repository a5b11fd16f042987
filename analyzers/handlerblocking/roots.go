package handlerblocking

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/eventpath"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// controller-runtime's packages of event handlers and predicates.
const (
	crHandlerPkg   = "sigs.k8s.io/controller-runtime/pkg/handler"
	crPredicatePkg = "sigs.k8s.io/controller-runtime/pkg/predicate"
)

// A root is a function the informer's delivery goroutine calls for an
// event.
type root struct {
	fn   *ssa.Function
	name string // how a message names the handler: "UpdateFunc handler"
}

// findRoots returns the package's event handlers: the functions stored in
// client-go's handler structs, the OnAdd/OnUpdate/OnDelete methods of
// handler types registered with an informer, and the functions of
// controller-runtime's handler.Funcs, map functions and predicates. All of
// them run on the delivery goroutine of a shared informer: client-go's
// processorListener.run calls the handler, and controller-runtime's
// source.Kind registers an EventHandler (pkg/internal/source/kind.go,
// AddEventHandlerWithOptions) whose OnAdd/OnUpdate/OnDelete call the
// predicates and then the handler (pkg/internal/source/event_handler.go).
func findRoots(pass *analysis.Pass, pkg *ssa.Package, funcs []*ssa.Function, paths *eventpath.Paths) []root {
	var roots []root
	for _, h := range paths.Handlers() {
		roots = append(roots, root{fn: h.Fn, name: h.Field + " handler"})
	}
	for _, m := range paths.HandlerMethods() {
		roots = append(roots, root{fn: m.Fn, name: m.Fn.Name() + " handler of " + m.Type.Name()})
	}
	if kube.LookupPackage(pass.Pkg, crHandlerPkg) != nil || kube.LookupPackage(pass.Pkg, crPredicatePkg) != nil {
		roots = append(roots, crRoots(pkg, funcs)...)
	}
	return roots
}

// crRoots finds controller-runtime's handler and predicate functions:
// those stored in handler.Funcs and predicate.Funcs (typed or not), those
// handed to EnqueueRequestsFromMapFunc and NewPredicateFuncs, and the
// methods of the package's own EventHandler and Predicate types.
func crRoots(pkg *ssa.Package, funcs []*ssa.Function) []root {
	var roots []root
	seen := make(map[*ssa.Function]bool)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					fa, ok := instr.Addr.(*ssa.FieldAddr)
					if !ok {
						continue
					}
					what := crFuncsStruct(fa.X.Type())
					if what == "" {
						continue // not a handler.Funcs or predicate.Funcs
					}
					if h, _ := ssax.Func(pkg, instr.Val); h != nil {
						roots = append(roots, root{fn: h, name: ssax.FieldOfAddr(fa).Name() + " of a " + what})
					}
				case *ssa.MakeInterface:
					roots = append(roots, crTypeRoots(pkg, instr, seen)...)
				case ssa.CallInstruction:
					callee := ssax.Callee(instr.Common())
					what := crFuncTaker(callee)
					if what == "" || len(instr.Common().Args) == 0 {
						continue
					}
					if h, _ := ssax.Func(pkg, instr.Common().Args[0]); h != nil {
						roots = append(roots, root{fn: h, name: what})
					}
				}
			}
		}
	}
	return roots
}

// crTypeRoots returns the Create, Update, Delete and Generic methods of a
// package type converted to controller-runtime's handler.EventHandler or
// predicate.Predicate (typed or not) by mi: what a source calls for each
// event. Each method is returned once.
func crTypeRoots(pkg *ssa.Package, mi *ssa.MakeInterface, seen map[*ssa.Function]bool) []root {
	path, iface := kube.PathName(mi.Type())
	switch {
	case path == crHandlerPkg && (iface == "EventHandler" || iface == "TypedEventHandler"):
	case path == crPredicatePkg && (iface == "Predicate" || iface == "TypedPredicate"):
	default:
		return nil // not a handler or predicate interface
	}
	t := mi.X.Type()
	n := kube.Named(t)
	if n == nil || n.Obj().Pkg() != pkg.Pkg || n.TypeParams().Len() > 0 {
		return nil // a library's handler, or a generic one
	}
	what := "event handler"
	if path == crPredicatePkg {
		what = "predicate"
	}
	var roots []root
	for _, name := range []string{"Create", "Update", "Delete", "Generic"} {
		obj, _, _ := types.LookupFieldOrMethod(t, true, pkg.Pkg, name)
		m, ok := obj.(*types.Func)
		if !ok || m.Pkg() != pkg.Pkg {
			continue // promoted from an embedded library type
		}
		fn := pkg.Prog.FuncValue(m)
		if fn == nil || fn.Blocks == nil || seen[fn] {
			continue
		}
		seen[fn] = true
		roots = append(roots, root{fn: fn, name: name + " method of the " + what + " " + n.Obj().Name()})
	}
	return roots
}

// crFuncsStruct names controller-runtime's handler.TypedFuncs or
// predicate.TypedFuncs (the Funcs aliases included), "" for other types.
func crFuncsStruct(t types.Type) string {
	path, name := kube.PathName(t)
	if name != "TypedFuncs" {
		return ""
	}
	switch path {
	case crHandlerPkg:
		return "handler.Funcs"
	case crPredicatePkg:
		return "predicate.Funcs"
	}
	return ""
}

// crFuncTaker names the role of the function argument of
// handler.EnqueueRequestsFromMapFunc and predicate.NewPredicateFuncs (and
// their typed variants), "" for other callees.
func crFuncTaker(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	switch fn.Pkg().Path() {
	case crHandlerPkg:
		if fn.Name() == "EnqueueRequestsFromMapFunc" || fn.Name() == "TypedEnqueueRequestsFromMapFunc" {
			return "map function of " + fn.Name()
		}
	case crPredicatePkg:
		if fn.Name() == "NewPredicateFuncs" || fn.Name() == "NewTypedPredicateFuncs" {
			return "predicate of " + fn.Name()
		}
	}
	return ""
}
