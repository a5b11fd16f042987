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
func processing(pkg *ssa.Package, funcs []*ssa.Function) map[*ssa.Function]bool {
	fieldFuncs := ssax.StoredFuncs(funcs)
	reached := make(map[*ssa.Function]bool)
	var work []*ssa.Function
	add := func(fn *ssa.Function) {
		if fn != nil && fn.Pkg == pkg && fn.Blocks != nil && !reached[fn] {
			reached[fn] = true
			work = append(work, fn)
		}
	}
	a := keyflow.New(pkg)
	for _, it := range a.Gets(funcs) {
		add(it.Fn)
	}
	for _, fn := range funcs {
		if m, ok := fn.Object().(*types.Func); ok && kube.IsReconcile(m) {
			add(fn)
		}
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
