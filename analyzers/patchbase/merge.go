package patchbase

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// mergeFrom checks a controller-runtime MergeFrom-style patch: it reports
// the patch when a Patch call sends it with its own base object, and that
// object is changed on a path from the MergeFrom to the Patch. Both are
// then serialised from the same memory when the patch is sent, so the
// patch holds no change at all.
func (c *checker) mergeFrom(mf *ssa.Call, callee *types.Func) {
	if len(mf.Call.Args) == 0 {
		return
	}
	// The base is a pointer, or an interface holding one (a client.Object
	// parameter): the same value handed to Patch is the same object.
	base := objectOf(mf.Call.Args[0])
	if c.deferredSends(mf, callee, base) {
		return
	}
	// One report per MergeFrom: the first send (in block order) that loses a
	// change; its fix mends the others.
	for _, send := range c.sends(mf, base) {
		// The change named is the first in the source.
		var first *change
		for _, instr := range ssax.Between(mf.Parent(), mf, send, mf) {
			if ch := c.changes(instr, base, kubessa.SubresourcePatch(send)); ch != nil && (first == nil || ch.instr.Pos() < first.instr.Pos()) {
				first = ch
			}
		}
		if first != nil {
			c.reportMergeFrom(mf, callee, send, first, false)
			return
		}
	}
}

// sends returns the calls that send the patch mf makes together with its
// base object: a Patch method (kube.IsPatchSender) handed the patch value
// itself and the same object.
func (c *checker) sends(mf *ssa.Call, base ssa.Value) []ssa.CallInstruction {
	var out []ssa.CallInstruction
	for _, ref := range kubessa.PatchUses(mf) {
		call, ok := ref.(ssa.CallInstruction)
		if !ok || !kube.IsPatchSender(ssax.Callee(call.Common())) && !isPatchData(call.Common(), mf) {
			continue
		}
		for _, a := range call.Common().Args {
			if objectOf(a) == base {
				out = append(out, call)
				break
			}
		}
	}
	return out
}

// deferredSends checks a patch sent by a closure deferred right after the
// MergeFrom, in its block (kubebuilder reconcilers that patch the status on
// every return): the patch is sent when the function returns, so every
// change on a path from the MergeFrom to a return is lost.
func (c *checker) deferredSends(mf *ssa.Call, callee *types.Func, base ssa.Value) (reported bool) {
	fn := mf.Parent()
	instrs := mf.Block().Instrs
	for _, instr := range instrs[ssax.Index(mf)+1:] {
		d, ok := instr.(*ssa.Defer)
		if !ok {
			continue
		}
		mc, ok := d.Call.Value.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		send := sendIn(mc.Fn.(*ssa.Function), mf, base)
		if send == nil {
			continue
		}
		var rets []ssa.Instruction
		for _, b := range fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				rets = append(rets, ret)
			}
		}
		var first *change
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if instr == mf || !ssax.Path(mf, instr, mf) {
					continue
				}
				ch := c.changes(instr, base, kubessa.SubresourcePatch(send))
				if ch == nil || first != nil && ch.instr.Pos() >= first.instr.Pos() {
					continue
				}
				for _, ret := range rets {
					if ssax.Path(instr, ret, mf) {
						first = ch
						break
					}
				}
			}
		}
		if first != nil {
			c.reportMergeFrom(mf, callee, send, first, true)
		}
		return first != nil
	}
	return false
}

// sendIn returns the call in a deferred closure that sends the patch mf
// makes with its base object, or nil.
func sendIn(fn *ssa.Function, mf *ssa.Call, base ssa.Value) ssa.CallInstruction {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || !kube.IsPatchSender(ssax.Callee(call.Common())) {
				continue
			}
			var patch, obj bool
			for _, a := range call.Common().Args {
				patch = patch || objectOf(a) == mf
				obj = obj || objectOf(a) == base
			}
			if patch && obj {
				return call
			}
		}
	}
	return nil
}

// isPatchData reports whether call is the patch's own Data method, which
// serialises the base and the object it is handed and diffs them: the
// document a Patch would send (cluster-api's patch helper calls it to tell
// whether anything changed).
func isPatchData(call *ssa.CallCommon, patch ssa.Value) bool {
	return call.IsInvoke() && call.Method.Name() == "Data" && kube.Is(call.Value.Type(), kube.CRClientPkg, "Patch") &&
		flow.Origin(call.Value, flow.Conversions) == patch
}

func (c *checker) reportMergeFrom(mf *ssa.Call, callee *types.Func, send ssa.CallInstruction, ch *change, deferred bool) {
	call := c.callAt(mf.Pos())
	arg, name := "obj", "the object"
	var fix *analysis.SuggestedFix
	if call != nil && len(call.Args) > 0 {
		arg = types.ExprString(call.Args[0])
		name = strings.TrimPrefix(arg, "&")
		if len(call.Args) > 1 {
			arg += ", ..." // the options stay as they are
		}
		fix = c.deepCopyFix(call.Args[0])
	}
	copied := name + ".DeepCopy()"
	if fix == nil {
		copied = name + ".DeepCopyObject().(client.Object)"
	}
	sender, verb := "Patch", "sends it"
	if s := c.callAt(send.Pos()); s != nil {
		sender = types.ExprString(s.Fun)
	}
	if send.Common().IsInvoke() && send.Common().Method.Name() == "Data" {
		verb = "computes it"
	}
	if deferred {
		sender, verb = "the deferred "+sender, "sends it on return"
	}
	msg := fmt.Sprintf("patch base is the object it patches: client.%s(%s) keeps a pointer to %s, and %s before %s %s (line %d): "+
		"base and object serialise alike, so the patch is empty and the change is never sent; take the base from a copy made before the change: client.%s(%s)",
		callee.Name(), arg, name, c.where(ch), sender, verb, c.line(send.Pos()), callee.Name(), strings.Replace(arg, strings.TrimSuffix(arg, ", ..."), copied, 1))
	d := analysis.Diagnostic{Pos: mf.Pos(), Message: msg}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	c.pass.Report(d)
}

// deepCopyFix takes the base from a deep copy: MergeFrom(obj) becomes
// MergeFrom(obj.DeepCopy()), and MergeFrom(&obj) MergeFrom(obj.DeepCopy()),
// when the object's type has the generated DeepCopy (returning a pointer
// to its own type, which is a client.Object since the original was) and the
// expression is a variable or a field, evaluated once either way.
func (c *checker) deepCopyFix(arg ast.Expr) *analysis.SuggestedFix {
	arg = ast.Unparen(arg)
	target := arg
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op.String() == "&" {
		target = ast.Unparen(u.X)
	}
	switch target.(type) {
	case *ast.Ident, *ast.SelectorExpr:
	default:
		return nil // a call or an index: copying it changes what is evaluated
	}
	if sel, ok := target.(*ast.SelectorExpr); ok && ssax.RootIdent(sel) == nil {
		return nil
	}
	t := c.pass.TypesInfo.TypeOf(target)
	if t == nil {
		return nil
	}
	ptr := t
	if target != arg {
		ptr = types.NewPointer(t)
	}
	if !hasDeepCopy(ptr) {
		return nil
	}
	edit := analysis.TextEdit{Pos: arg.End(), End: arg.End(), NewText: []byte(".DeepCopy()")}
	edits := []analysis.TextEdit{edit}
	if target != arg {
		edits = []analysis.TextEdit{
			{Pos: arg.Pos(), End: target.Pos(), NewText: nil},
			edit,
		}
		if p, ok := arg.(*ast.UnaryExpr); ok && ast.Unparen(p.X) != p.X {
			return nil // &(obj): leave the parentheses to the author
		}
	}
	return &analysis.SuggestedFix{Message: "Take the patch base from a deep copy", TextEdits: edits}
}

// hasDeepCopy reports whether *T has the generated DeepCopy method, whose
// result is *T.
func hasDeepCopy(ptr types.Type) bool {
	if _, ok := types.Unalias(ptr).(*types.Pointer); !ok {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(ptr, true, nil, "DeepCopy")
	m, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := m.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), ptr)
}
