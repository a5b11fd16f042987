package cachemutation

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
)

// freshOn reports whether instr runs only where an object carrying src's
// taint has an empty resourceVersion. An informer, and the API server,
// only ever return objects that have one; there the object is one the code
// built itself (a get-or-new helper's new object), not the cached one, and
// a builder filling it in on that branch writes nothing shared.
func (f *unit) freshOn(instr ssa.Instruction, src *source) bool {
	for b := instr.Block(); b != nil; b = b.Idom() {
		if len(b.Preds) != 1 {
			continue
		}
		p := b.Preds[0]
		iff, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok || p.Succs[0] == p.Succs[1] {
			continue
		}
		obj, empty := emptyResourceVersion(iff.Cond)
		if obj != nil && (p.Succs[0] == b) == empty && f.taintOf(obj).src == src {
			return true
		}
	}
	return false
}

// emptyResourceVersion recognises obj.ResourceVersion == "" and
// obj.GetResourceVersion() == "" (or !=): the object, and whether the
// condition holds when the resourceVersion is empty.
func emptyResourceVersion(cond ssa.Value) (obj ssa.Value, empty bool) {
	cmp, ok := cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil, false
	}
	x := cmp.X
	if !isEmptyString(cmp.Y) {
		if !isEmptyString(cmp.X) {
			return nil, false
		}
		x = cmp.Y
	}
	obj = kubessa.MetaField(x, kube.FieldResourceVersion)
	if obj == nil {
		return nil, false
	}
	return obj, cmp.Op == token.EQL
}

func isEmptyString(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.String && constant.StringVal(c.Value) == ""
}
