package eventpath

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// A RootKind says why a function starts a per-event path.
type RootKind int

const (
	// WorkerRoot takes keys from a work queue (processNextWorkItem).
	WorkerRoot RootKind = iota + 1
	// ReconcileRoot is a controller-runtime Reconcile method.
	ReconcileRoot
	// KnativeRoot is a method knative's generated reconcilers call per key.
	KnativeRoot
	// PeriodicRoot is a function handed to wait.Until and its kin.
	PeriodicRoot
	// HandlerRoot is a function stored in a client-go event-handler struct.
	HandlerRoot
)

// Each says how often a root runs, for messages: "on every reconcile".
func (k RootKind) Each() string {
	switch k {
	case ReconcileRoot, KnativeRoot:
		return "every reconcile"
	case PeriodicRoot:
		return "every period"
	case HandlerRoot:
		return "every event"
	}
	return "every sync"
}

// A Root is a function a per-event path starts from.
type Root struct {
	Fn   *ssa.Function
	Kind RootKind
}

// Roots returns the functions the per-event path starts from: the roots
// of Processing (workers and Reconcile methods) and those PerEvent adds
// (knative reconcilers, periodic passes, event handlers), in that order.
func (p *Paths) Roots() []Root {
	p.init()
	return slices.Concat(p.processing, p.event)
}

// processingRoots are the functions that take keys from a work queue and
// the controller-runtime Reconcile methods.
func (p *Paths) processingRoots() []Root {
	var roots []Root
	for _, it := range p.keys.Items() {
		roots = append(roots, Root{it.Fn, WorkerRoot})
	}
	for _, fn := range p.funcs {
		if m, ok := fn.Object().(*types.Func); ok && kube.IsReconcile(m) {
			roots = append(roots, Root{fn, ReconcileRoot})
		}
	}
	return roots
}

// eventRoots are the knative reconcile methods, the functions handed to
// wait loops and the event handlers.
func (p *Paths) eventRoots() []Root {
	var roots []Root
	for _, fn := range p.funcs {
		if m, ok := fn.Object().(*types.Func); ok && IsKnativeReconcile(m) {
			roots = append(roots, Root{fn, KnativeRoot})
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || !kube.IsWaitLoop(ssax.Callee(call.Common())) {
					continue
				}
				for _, arg := range call.Common().Args {
					if f := p.local(arg); f != nil {
						roots = append(roots, Root{f, PeriodicRoot})
					}
				}
			}
		}
	}
	for _, h := range p.handlers {
		roots = append(roots, Root{h.Fn, HandlerRoot})
	}
	return roots
}

// A Witness says how each function on a per-event path is reached: from
// which root, through which calls.
type Witness struct {
	from map[*ssa.Function]*ssa.Function
	root map[*ssa.Function]Root
}

// Witness walks the per-event path from roots (Roots' result, or some of
// them), breadth first: each function's witness is a shortest chain of
// calls from the first root that reaches it, stop left out (see Reach).
// Its functions are PerEvent's when roots are all of Roots.
func (p *Paths) Witness(roots []Root, stop Stop) *Witness {
	p.init()
	w := &Witness{from: make(map[*ssa.Function]*ssa.Function), root: make(map[*ssa.Function]Root)}
	byFn := make(map[*ssa.Function]Root)
	fns := make([]*ssa.Function, 0, len(roots))
	for _, r := range roots {
		if _, ok := byFn[r.Fn]; !ok {
			byFn[r.Fn] = r
			fns = append(fns, r.Fn)
		}
	}
	p.walk(fns, stop, func(fn, from *ssa.Function) bool {
		if _, ok := w.root[fn]; ok {
			return false
		}
		if from == nil {
			w.root[fn] = byFn[fn]
		} else {
			w.root[fn] = w.root[from]
		}
		w.from[fn] = from
		return true
	})
	return w
}

// Path returns the root that reaches fn and the chain of functions from
// it to fn, both included; false when fn is not on the path.
func (w *Witness) Path(fn *ssa.Function) (Root, []*ssa.Function, bool) {
	root, ok := w.root[fn]
	if !ok {
		return Root{}, nil, false
	}
	var chain []*ssa.Function
	for f := fn; f != nil; f = w.from[f] {
		chain = append(chain, f)
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return root, chain, true
}
