package finalizerpatch

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/crash"
	"github.com/ctrllint/ctrllint/internal/lend"
)

const name = "finalizerpatch"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "FinalizerPatchWithoutLock",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer, lend.Analyzer, summary.Analyzer},
	FactTypes: []analysis.Fact{new(finalizersFact)},
	Run:       run,
})

// Analyzer reports finalizers changed and sent in a JSON merge patch
// without the optimistic lock.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	patches := kube.LookupPackage(pass.Pkg, kube.CRClientPkg) != nil
	exports := summary.Exports(pass)
	if !patches && !exports {
		return nil, nil // no MergeFrom in sight, and no summaries to export
	}
	res := kubessa.Of(pass)
	if res == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	c := &checker{
		pass:     pass,
		pkg:      res.Pkg,
		funcs:    res.SrcFuncs,
		writes:   make(map[paramKey]*change),
		imported: make(map[*types.Func]*finalizersFact),
	}
	if exports {
		c.export(res.SrcFuncs)
	}
	if patches {
		for _, fn := range res.Checked {
			c.function(fn)
		}
	}
	return nil, nil
}

type checker struct {
	pass  *analysis.Pass
	pkg   *ssa.Package
	funcs []*ssa.Function // the package's source functions
	// writes memoises how the package's functions change the finalizers
	// of an object they are handed (nil: not changed, or being computed).
	writes map[paramKey]*change
	// imported are the facts of other packages' functions, read once.
	imported map[*types.Func]*finalizersFact
	// callers are the static calls of each function of the package from
	// code outside tests, made when first asked.
	callers map[*ssa.Function][]*ssa.Call
}

type paramKey struct {
	fn *ssa.Function
	i  int
}

func (c *checker) function(fn *ssa.Function) {
	defer crash.At(c.pass.Fset, fn.Pos())
	if isTest(c.pass, fn) {
		return // tests patch fake clients, where no other controller races
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if callee := ssax.Callee(call.Common()); kube.IsJSONMergeFromFunc(callee) {
				c.mergeFrom(call, callee)
			}
		}
	}
}

func isTest(pass *analysis.Pass, fn *ssa.Function) bool {
	return strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go")
}

// objectOf is the object v stands for: the pointer or interface behind
// conversions to client.Object and back, a closure's capture, and the
// address of its embedded ObjectMeta.
func objectOf(v ssa.Value) ssa.Value { return kubessa.MetaObject(v) }

// mergeFrom checks a MergeFrom or MergeFromWithOptions patch without the
// optimistic lock: it reports the patch when a Patch sends it for an
// object whose finalizers change between the copy that links the object
// and the base (base := obj.DeepCopy(), or obj := base.DeepCopy()) and
// that Patch.
func (c *checker) mergeFrom(mf *ssa.Call, callee *types.Func) {
	args := mf.Call.Args
	if len(args) == 0 {
		return
	}
	if len(args) > 1 && !unlocked(args[1]) {
		return // the optimistic lock, or options that may hold it
	}
	base := objectOf(args[0])
	for _, s := range sends(mf) {
		obj := objectOf(s.obj)
		if obj == base {
			continue // the object is its own base: the patch is empty (patchbase)
		}
		cp, readIsBase := copied(base, obj)
		if cp == nil || cp.Parent() != s.call.Parent() {
			continue // base and object are not known to be one object's two states
		}
		// The change named is the first in the source.
		var first *change
		for _, instr := range ssax.Between(s.call.Parent(), cp, s.call, cp) {
			if ch := c.finalizerChange(instr, obj); ch != nil && (first == nil || ch.instr.Pos() < first.instr.Pos()) {
				first = ch
			}
		}
		if first != nil {
			c.report(mf, callee, s, first, readIsBase)
			return
		}
	}
}

// unlocked reports whether the options handed to MergeFromWithOptions
// are listed at the call and none is (or may be) the optimistic lock: an
// option of an interface type, or a slice built elsewhere (opts...), may
// hold it.
func unlocked(opts ssa.Value) bool {
	values, ok := flow.Variadic(opts)
	if !ok {
		return false
	}
	for _, v := range values {
		t := v.Type()
		if mi, isConv := v.(*ssa.MakeInterface); isConv {
			t = mi.X.Type()
		}
		if types.IsInterface(t) || kube.IsOptimisticLock(t) {
			return false
		}
	}
	return true
}

// A send is a Patch call handed the patch, and the object it patches.
type send struct {
	call  *ssa.Call
	obj   ssa.Value
	patch int // the patch's index in call's arguments
}

// sends returns the calls that send the patch mf makes for an object's
// metadata: a Patch method (kube.IsPatchSender) handed the patch value,
// not one of a subresource (whose patch carries no finalizers), with the
// object as the argument before the patch (client.Client's
// Patch(ctx, obj, patch, opts...), and wrappers of its shape).
func sends(mf *ssa.Call) []send {
	var out []send
	for _, use := range kubessa.PatchUses(mf) {
		call, ok := use.(*ssa.Call) // a deferred Patch sends what is changed after it too: not followed
		if !ok || !kube.IsPatchSender(ssax.Callee(call.Common())) || kubessa.SubresourcePatch(call) {
			continue
		}
		args := call.Call.Args
		for k, a := range args {
			if k == 0 || flow.Origin(a, flow.Conversions) != mf {
				continue
			}
			if obj := args[k-1]; isObject(obj.Type()) {
				out = append(out, send{call, obj, k})
			}
			break
		}
	}
	return out
}

// isObject: a pointer or an interface other than context.Context.
func isObject(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Pointer); ok {
		return true
	}
	return types.IsInterface(t) && !kube.Is(t, "context", "Context")
}

// copied returns the DeepCopy (or DeepCopyObject) call that makes base a
// copy of obj, or obj a copy of base (then fromBase is set); nil when
// neither is.
func copied(base, obj ssa.Value) (cp *ssa.Call, fromBase bool) {
	if call, ok := flow.Origin(base, flow.Same).(*ssa.Call); ok {
		if from, ok := kubessa.DeepCopyOf(call); ok && objectOf(from) == obj {
			return call, false
		}
	}
	if call, ok := flow.Origin(obj, flow.Same).(*ssa.Call); ok {
		if from, ok := kubessa.DeepCopyOf(call); ok && objectOf(from) == base {
			return call, true
		}
	}
	return nil, false
}

func (c *checker) report(mf *ssa.Call, callee *types.Func, s send, ch *change, readIsBase bool) {
	call := edit.CallAt(c.pass, mf.Pos())
	qual := "client."
	written := "client." + callee.Name() + "(...)"
	base := "base"
	if call != nil {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			qual = types.ExprString(sel.X) + "."
		} else {
			qual = ""
		}
		written = types.ExprString(call)
		if len(call.Args) > 0 {
			base = types.ExprString(call.Args[0])
		}
	}
	sender, obj := "Patch", "the object"
	if e := edit.CallAt(c.pass, s.call.Pos()); e != nil {
		sender = types.ExprString(e.Fun)
		k := s.patch - 1 // the object, before the patch
		if sig := ssax.Callee(s.call.Common()).Signature(); !s.call.Call.IsInvoke() && sig.Recv() != nil {
			k-- // a static method call: SSA's arguments start with the receiver
		}
		if k >= 0 && k < len(e.Args) {
			obj = strings.TrimPrefix(types.ExprString(e.Args[k]), "&")
		}
	}
	read := obj // the object read, of which the other is a copy
	if readIsBase {
		read = strings.TrimPrefix(base, "&")
	}
	msg := fmt.Sprintf("finalizers sent in a JSON merge patch without an optimistic lock: %s changes %s's finalizers (line %d) and %s sends them with %s (line %d); a merge patch replaces the whole list and carries no resourceVersion, so a finalizer another controller added after %s was read is dropped; use %sMergeFromWithOptions(%s, %sMergeFromWithOptimisticLock{}), which fails with a Conflict instead",
		ch.what, obj, c.line(ch.instr.Pos()), sender, written, c.line(s.call.Pos()), read, qual, base, qual)
	d := analysis.Diagnostic{Pos: mf.Pos(), Message: msg}
	if fix := lockFix(c.pass, call, qual); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	c.pass.Report(d)
}

// line is the line of pos, for messages.
func (c *checker) line(pos token.Pos) int { return c.pass.Fset.Position(pos).Line }
