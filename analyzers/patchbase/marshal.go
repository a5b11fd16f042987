package patchbase

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// marshalFuncs serialise their one argument to JSON, the documents
// client-go style controllers diff into a patch.
var marshalFuncs = map[string]bool{
	"encoding/json":                     true,
	"k8s.io/apimachinery/pkg/util/json": true,
}

// marshalled returns the json.Marshal call whose bytes v is, and the
// object it serialised (see objectOf), or nil.
func marshalled(v ssa.Value) (*ssa.Call, ssa.Value) {
	ex, ok := v.(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return nil, nil
	}
	call, ok := ex.Tuple.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return nil, nil
	}
	fn := ssax.Callee(call.Common())
	if fn == nil || fn.Pkg() == nil || !marshalFuncs[fn.Pkg().Path()] || !kube.IsFunc(fn, fn.Pkg().Path(), "Marshal") {
		return nil, nil
	}
	return call, objectOf(call.Call.Args[0])
}

// twoWay checks a patch computed from two documents
// (strategicpatch.CreateTwoWayMergePatch, jsonpatch.CreateMergePatch): it
// reports the patch when both are json.Marshal of the same object, the
// object was changed before the original was marshalled, and nothing can
// change it between the two marshals. The documents are then equal and the
// patch is "{}": the change was meant to be in it and is never sent.
func (c *checker) twoWay(call *ssa.Call, callee *types.Func) {
	if len(call.Call.Args) < 2 {
		return
	}
	oldM, oldObj := marshalled(call.Call.Args[0])
	newM, newObj := marshalled(call.Call.Args[1])
	if oldM == nil || newM == nil || oldObj != newObj {
		return // documents of different objects, or not marshalled here
	}
	obj := oldObj
	if _, isPtr := obj.Type().Underlying().(*types.Pointer); !isPtr && !types.IsInterface(obj.Type()) {
		return // a value: each marshal serialises its own copy
	}
	if oldM != newM {
		if !ssax.Path(oldM, newM, nil) {
			return // the modified document is not marshalled after the original
		}
		for _, instr := range ssax.Between(call.Parent(), oldM, newM, nil) {
			if c.mayChange(instr, obj) {
				return // the object may change between the two marshals: the documents may differ
			}
		}
	}
	// The change named is the last one written before the original is
	// marshalled (one after it in the source reaches it around a loop).
	var ch *change
	for _, b := range call.Parent().Blocks {
		for _, instr := range b.Instrs {
			if instr == oldM || !ssax.Path(instr, oldM, nil) {
				continue
			}
			found := c.changes(instr, obj, false)
			switch {
			case found == nil:
			case ch == nil,
				found.instr.Pos() < oldM.Pos() && (ch.instr.Pos() > oldM.Pos() || found.instr.Pos() > ch.instr.Pos()):
				ch = found
			}
		}
	}
	if ch == nil {
		return // no change meant for the patch: nothing is lost
	}
	name := "the object"
	if e := c.callAt(oldM.Pos()); e != nil && len(e.Args) == 1 {
		name = types.ExprString(e.Args[0])
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: call.Pos(),
		Message: fmt.Sprintf("patch computed from identical documents: the original is json.Marshal(%s) at line %d, taken after %s, and %s does not change before the modified document is marshalled, "+
			"so %s returns an empty patch and the change is never sent; marshal the original before changing %s",
			name, c.line(oldM.Pos()), c.where(ch), name, qualified(callee), name),
	})
}

// mayChange reports whether instr may change the object obj points to: a
// change we know (changes), or a call handed the object or memory reached
// from it, other than a marshal, whose effect we do not know.
func (c *checker) mayChange(instr ssa.Instruction, obj ssa.Value) bool {
	if c.changes(instr, obj, false) != nil {
		return true
	}
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	if fn := ssax.Callee(call.Common()); fn != nil && fn.Pkg() != nil && marshalFuncs[fn.Pkg().Path()] {
		return false
	}
	common := call.Common()
	args := common.Args
	if common.IsInvoke() {
		args = append([]ssa.Value{common.Value}, args...)
	}
	for _, a := range args {
		if reachedFrom(a, obj) {
			return true
		}
	}
	return false
}
