package requeueerr

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// roots returns the package's Reconcile functions: methods that implement
// controller-runtime's Reconciler, TypedReconciler or ObjectReconciler
// (kube.IsReconcile), and the functions, function literals and method
// values converted to reconcile.Func or reconcile.TypedFunc — the shape a
// builder's Complete or controller.Options.Reconciler takes a function in.
func roots(pkg *ssa.Package, funcs []*ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	seen := make(map[*ssa.Function]bool)
	add := func(fn *ssa.Function) {
		if fn != nil && !seen[fn] {
			seen[fn] = true
			out = append(out, fn)
		}
	}
	for _, fn := range funcs {
		if m, ok := fn.Object().(*types.Func); ok && kube.IsReconcile(m) && fn.Blocks != nil {
			add(fn)
		}
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if ct, ok := instr.(*ssa.ChangeType); ok && isReconcileFunc(ct.Type()) {
					target, _ := ssax.Func(pkg, ct.X)
					add(target) // a method value's results are the method's
				}
			}
		}
	}
	return out
}
