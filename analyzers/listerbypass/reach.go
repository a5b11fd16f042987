package listerbypass

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// processing returns the functions of the package that run on a
// controller's processing path: those that take keys from a work queue
// (the worker loop), controller-runtime Reconcile methods, and everything
// they call in the package — directly, through method values and closures,
// through func-typed struct fields (sample-controller's c.syncHandler), and
// closures they hand to other code (wait.Poll*). Closures handed to
// retry.RetryOnConflict, retry.OnError and kubernetes'
// controller.RecheckDeletionTimestamp are left out: a fresh read is what
// they are for.
//
// It also says which controllers reach each function: the named receiver
// types of the roots whose path it is on (nil for a root without one), so
// that a read is measured against the caches of its own controller, not
// another one's in the same package.
func processing(pkg *ssa.Package, funcs []*ssa.Function, fieldFuncs map[*types.Var][]ssa.Value) map[*ssa.Function]owners {
	roots := make(map[*types.TypeName][]*ssa.Function)
	a := keyflow.New(pkg)
	for _, it := range a.Gets(funcs) {
		roots[ownerOf(it.Fn)] = append(roots[ownerOf(it.Fn)], it.Fn)
	}
	for _, fn := range funcs {
		if m, ok := fn.Object().(*types.Func); ok && kube.IsReconcile(m) {
			roots[ownerOf(fn)] = append(roots[ownerOf(fn)], fn)
		}
	}
	reached := make(map[*ssa.Function]owners)
	for owner, fns := range roots {
		for fn := range reachFrom(pkg, fieldFuncs, fns) {
			if reached[fn] == nil {
				reached[fn] = make(owners)
			}
			reached[fn][owner] = true
		}
	}
	return reached
}

// perEvent returns the functions of the package that run once per event or
// per period, not once at start-up: the processing path (onPath), and what
// event handlers (the functions stored in client-go's handler structs),
// periodic passes (functions handed to wait.Until and its kin) and knative
// reconcilers (ReconcileKind and its kin, which knative's generated
// reconciler calls for every key) reach. A read there runs as often as
// events arrive or the period elapses.
func perEvent(pkg *ssa.Package, funcs []*ssa.Function, fieldFuncs map[*types.Var][]ssa.Value, onPath map[*ssa.Function]owners) map[*ssa.Function]bool {
	var roots []*ssa.Function
	for fn := range onPath {
		roots = append(roots, fn)
	}
	for _, fn := range funcs {
		if m, ok := fn.Object().(*types.Func); ok && isKnativeReconcile(m) {
			roots = append(roots, fn)
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Store:
					if isHandlerField(x.Addr) {
						roots = append(roots, localFunc(pkg, x.Val))
					}
				case ssa.CallInstruction:
					if kube.IsWaitLoop(ssax.Callee(x.Common())) {
						for _, arg := range x.Common().Args {
							roots = append(roots, localFunc(pkg, arg))
						}
					}
				}
			}
		}
	}
	return reachFrom(pkg, fieldFuncs, roots)
}

// isHandlerField reports whether addr is a field of one of client-go's
// event-handler structs (AddFunc, UpdateFunc, DeleteFunc, FilterFunc),
// set in a composite literal or later.
func isHandlerField(addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	_, ok = kube.HandlerStructOf(fa.X.Type())
	return ok
}

// knativeReconcilerPkg declares the Event that knative's generated
// reconcilers expect back from ReconcileKind and FinalizeKind.
const knativeReconcilerPkg = "knative.dev/pkg/reconciler"

// isKnativeReconcile reports whether fn is a method knative's generated
// reconciler calls for every key it takes from its queue: ReconcileKind,
// FinalizeKind, ObserveKind or ObserveFinalizeKind(ctx, obj) reconciler.Event.
func isKnativeReconcile(m *types.Func) bool {
	switch m.Name() {
	case "ReconcileKind", "FinalizeKind", "ObserveKind", "ObserveFinalizeKind":
	default:
		return false
	}
	sig := m.Type().(*types.Signature)
	return sig.Recv() != nil && sig.Results().Len() == 1 && kube.Is(sig.Results().At(0).Type(), knativeReconcilerPkg, "Event")
}

// owners are the controller types whose processing path a function is on;
// the nil key stands for a root that has no receiver type.
type owners map[*types.TypeName]bool

// ownerOf is the named receiver type of fn, or of the method a closure is
// declared in; nil for a plain function.
func ownerOf(fn *ssa.Function) *types.TypeName {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	t := recv.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// reachFrom returns roots and the package functions they reach.
func reachFrom(pkg *ssa.Package, fieldFuncs map[*types.Var][]ssa.Value, roots []*ssa.Function) map[*ssa.Function]bool {
	reached := make(map[*ssa.Function]bool)
	var work []*ssa.Function
	add := func(fn *ssa.Function) {
		if fn != nil && fn.Pkg == pkg && fn.Blocks != nil && !reached[fn] {
			reached[fn] = true
			work = append(work, fn)
		}
	}
	for _, fn := range roots {
		add(fn)
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				common := call.Common()
				add(localFunc(pkg, common.Value))
				if f := ssax.LoadedField(common.Value); f != nil {
					for _, target := range fieldFuncs[f] {
						add(localFunc(pkg, target))
					}
				}
				if kube.IsFreshReadFunc(ssax.Callee(common)) {
					continue // its closure is a sanctioned fresh read
				}
				for _, arg := range common.Args {
					add(localFunc(pkg, arg))
				}
			}
		}
	}
	return reached
}

// localFunc is the package function a function value runs, or nil.
func localFunc(pkg *ssa.Package, v ssa.Value) *ssa.Function {
	fn, _ := ssax.Func(pkg, v)
	return fn
}
