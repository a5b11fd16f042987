package finalizer

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "finalizer"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "UnsafeFinalizerChange",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer},
	Run:       run,
})

// Analyzer reports finalizers removed while a cleanup's error is ignored,
// and finalizers added to an object being deleted.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.MetaV1Pkg) == nil {
		return nil, nil // no object metadata in sight
	}
	res := kubessa.Of(pass)
	if res == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	var funcs []*ssa.Function
	for _, fn := range res.SrcFuncs {
		if strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go") {
			continue // tests stage deletions against fake clients, which enforce nothing
		}
		funcs = append(funcs, fn)
	}
	dels := deletions(res.Pkg, funcs) // tests' calls of a reconcileDelete helper decide nothing
	for _, fn := range funcs {
		if res.Generated(fn) {
			continue // its findings would be dropped (kubessa.SSA.Checked)
		}
		checkFunc(pass, fn, dels[fn])
	}
	return nil, nil
}

// A deletion is a branch on which obj is known to be being deleted.
type deletion struct {
	obj   ssa.Value
	check *ssa.If
	block *ssa.BasicBlock // the successor taken when obj is being deleted
}

type op struct {
	instr ssa.Instruction
	obj   ssa.Value
	kind  opKind
}

func checkFunc(pass *analysis.Pass, fn *ssa.Function, dels []deletion) {
	defer crash.At(pass.Fset, fn.Pos())
	var ops []op
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if o, k := finalizerOp(instr); o != nil && k != 0 {
				ops = append(ops, op{instr, o, k})
			}
		}
	}
	if len(dels) == 0 || len(ops) == 0 {
		return // nothing is known to be deleted, or no finalizer changes
	}
	for _, o := range ops {
		switch o.kind {
		case removeOp:
			checkRemoval(pass, fn, dels, o)
		case addOp:
			checkAdd(pass, fn, dels, o)
		}
	}
}

// checkRemoval reports a removal on the deletion branch of its object that
// is written, and reached from a cleanup call whose error is ignored.
func checkRemoval(pass *analysis.Pass, fn *ssa.Function, dels []deletion, r op) {
	var del *deletion
	for i := range dels {
		d := &dels[i]
		if d.obj == r.obj && d.dominates(r.instr.Block()) {
			del = d
			break
		}
	}
	if del == nil {
		return // not known to run while the object is being deleted
	}
	if _, ok := writtenAfter(fn, r); !ok {
		return // not sent here: a helper or a caller may still decide
	}
	for _, b := range fn.DomPreorder() {
		if !del.block.Dominates(b) {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee, ok := cleanupCall(call, r.obj)
			if !ok || !ignoredUntil(call, r.instr) {
				continue
			}
			kind := kindOf(r.obj)
			pass.Report(analysis.Diagnostic{
				Pos: r.instr.Pos(),
				Message: fmt.Sprintf("finalizer removed from the %s being deleted though the error of %s (line %d) is ignored on the way here: if that cleanup failed, the %s is deleted anyway and what it was to clean up is left behind for good; return the error (or requeue) before removing the finalizer",
					kind, callee, pass.Fset.Position(call.Pos()).Line, kind),
			})
			return
		}
	}
}

// checkAdd reports an add that is written and reached from the deletion
// branch of its object.
func checkAdd(pass *analysis.Pass, fn *ssa.Function, dels []deletion, a op) {
	write, ok := writtenAfter(fn, a)
	if !ok {
		return // not sent here
	}
	def := definingBlock(a.obj)
	for i := range dels {
		d := &dels[i]
		if d.obj != a.obj {
			continue
		}
		reached := reachesDeleted(d, a, def)
		if !reached {
			continue
		}
		kind := kindOf(a.obj)
		pass.Report(analysis.Diagnostic{
			Pos: a.instr.Pos(),
			Message: fmt.Sprintf("finalizer added to the %s on a path where it is being deleted (DeletionTimestamp checked at line %d): the API server rejects new finalizers on an object being deleted, so %s fails every time; add the finalizer only when DeletionTimestamp is zero",
				kind, pass.Fset.Position(checkPos(d.check)).Line, write),
		})
		return
	}
	if d := checkedLater(fn, dels, a, def); d != nil {
		kind := kindOf(a.obj)
		pass.Report(analysis.Diagnostic{
			Pos: a.instr.Pos(),
			Message: fmt.Sprintf("finalizer added to the %s before its DeletionTimestamp is checked (line %d): a %s being deleted that no longer has this finalizer (another finalizer keeps it) gets it added back, which the API server rejects, so %s fails on every reconcile until the object is gone; add the finalizer only when DeletionTimestamp is zero",
				kind, pass.Fset.Position(checkPos(d.check)).Line, kind, write),
		})
	}
}

// checkedLater returns a deletion check of the add's object in fn when the
// add is reached from the object's definition (or fn's entry) on a path
// through none of those checks: the function handles the object's
// deletion, but not before this add. Paths where ContainsFinalizer says
// the finalizer is present are left out, as in reachesDeleted.
func checkedLater(fn *ssa.Function, dels []deletion, a op, def *ssa.BasicBlock) *deletion {
	var own *deletion
	checks := make(map[*ssa.BasicBlock]bool)
	for i := range dels {
		d := &dels[i]
		if d.obj == a.obj && d.check.Parent() == fn {
			checks[d.check.Block()] = true
			if own == nil {
				own = d
			}
		}
	}
	if own == nil {
		return nil // the function never looks at the object's deletion
	}
	start := def
	if start == nil {
		start = fn.Blocks[0]
	}
	seen := make(map[*ssa.BasicBlock]bool)
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] || (b == def && len(seen) > 0) {
			continue
		}
		seen[b] = true
		if b == a.instr.Block() {
			return own
		}
		if checks[b] {
			continue // past here the object's deletion is known either way
		}
		succs := b.Succs
		if ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			if o, ifTrue := containsCheck(ifi.Cond); o == a.obj {
				succs = succs[:1]
				if ifTrue {
					succs = b.Succs[1:]
				}
			}
		}
		work = append(work, succs...)
	}
	return nil
}

// writtenAfter returns the write of the object that follows a finalizer
// change: a call reached from it, or a deferred one (a patch helper's
// defer patchHelper.Patch(ctx, obj), or a deferred closure making that
// call, as cluster-api's reconcilers do).
func writtenAfter(fn *ssa.Function, o op) (string, bool) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				if w, ok := deferredWrite(&d.Call, o.obj); ok {
					return w, true
				}
			}
		}
	}
	var write string
	started := false
	ssax.Walk([]*ssa.BasicBlock{o.instr.Block()}, false, func(b *ssa.BasicBlock) ssax.Step {
		for _, instr := range b.Instrs {
			if b == o.instr.Block() && !started {
				started = instr == o.instr
				continue
			}
			if call, ok := instr.(*ssa.Call); ok {
				if w, ok := writeOf(&call.Call, o.obj); ok {
					write = w
					return ssax.Stop
				}
			}
		}
		return ssax.Expand
	})
	return write, write != ""
}

// deferredWrite is the write of obj a deferred call makes: the call
// itself, or a call in the body of a deferred func literal.
func deferredWrite(common *ssa.CallCommon, obj ssa.Value) (string, bool) {
	if w, ok := writeOf(common, obj); ok {
		return w, true
	}
	mc, ok := common.Value.(*ssa.MakeClosure)
	if !ok {
		return "", false
	}
	lit, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return "", false
	}
	for _, b := range lit.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if w, ok := writeOf(&call.Call, obj); ok {
					return w, true
				}
			}
		}
	}
	return "", false
}

// definingBlock is the block that makes v, nil for parameters and globals.
func definingBlock(v ssa.Value) *ssa.BasicBlock {
	if instr, ok := v.(ssa.Instruction); ok {
		return instr.Block()
	}
	return nil
}

// kindOf names an object's type for messages ("Memcached"), or "object".
func kindOf(v ssa.Value) string {
	if k := kube.Kind(v.Type()); k != "" && kube.IsObjectType(v.Type()) {
		return k
	}
	return "object"
}

// checkPos is where a deletion check is written: an If has no position of
// its own, its condition does (the comparison, the IsZero call).
func checkPos(ifi *ssa.If) token.Pos {
	if p := ifi.Cond.Pos(); p.IsValid() {
		return p
	}
	for _, instr := range ifi.Block().Instrs {
		if p := instr.Pos(); p.IsValid() {
			return p
		}
	}
	return token.NoPos
}

// reachesDeleted reports whether the add is reached from the deletion
// branch on a path that may still lack the finalizer: a recheck of the
// deletion goes on only where the object is being deleted, a
// controllerutil.ContainsFinalizer check of the object only where the
// finalizer is missing (where it is present, adding it changes nothing and
// the write is accepted), and a path that reaches the object's definition
// again is about another object (the next iteration of a loop).
func reachesDeleted(d *deletion, a op, def *ssa.BasicBlock) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	work := []*ssa.BasicBlock{d.block}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] || b == def {
			continue
		}
		seen[b] = true
		if b == a.instr.Block() {
			return true
		}
		succs := b.Succs
		if ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			if o, ifTrue := deletionCheck(ifi.Cond); o == a.obj {
				succs = succs[1:]
				if ifTrue {
					succs = b.Succs[:1]
				}
			} else if o, ifTrue := containsCheck(ifi.Cond); o == a.obj {
				succs = succs[:1]
				if ifTrue {
					succs = b.Succs[1:]
				}
			}
		}
		work = append(work, succs...)
	}
	return false
}
