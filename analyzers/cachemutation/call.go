package cachemutation

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// call handles the calls that read the cache, write to their arguments,
// pass references through, or run package code that does either.
func (f *unit) call(call ssa.CallInstruction) bool {
	common := call.Common()
	if b, ok := common.Value.(*ssa.Builtin); ok {
		return f.builtin(call, b, common.Args)
	}
	callee := ssax.Callee(common)
	recv, args := receiverAndArgs(common)
	changed := false
	if v := call.Value(); v != nil && f.sources {
		r, ok := kube.CacheReadOf(callee, typeOf(recv))
		if !ok && callee != nil && recv != nil {
			// A method promoted from an embedded lister (a struct that
			// embeds listers.ResourceIndexer[T]): its declared receiver.
			r, ok = kube.CacheReadOf(callee, callee.Type().(*types.Signature).Recv().Type())
		}
		if ok {
			src := f.source(v, 0, func() *source { return &source{call: v, desc: f.a.callText(v), many: r.Many, param: -1} })
			b := shared
			if r.Many {
				b = holds
			}
			changed = f.setResult(v, 0, taint{b: b, src: src}) || changed
		}
	}
	if i, ok := kube.CacheCallbackArg(callee); ok && f.sources && i < len(args) {
		changed = f.callback(call, args[i]) || changed
	}
	if recv != nil && isObjectSetter(callee) {
		if t := f.taintOf(recv); t.b&shared != 0 {
			changed = f.addSink(call, call.Pos(), t.src) || changed
		}
	}
	if i, ok := writtenArg(callee); ok && i < len(args) {
		if t := f.taintOf(args[i]); t.b&shared != 0 {
			changed = f.addSink(call, call.Pos(), t.src) || changed
		}
	}
	if v := call.Value(); v != nil && returnsArg(callee) && len(args) > 0 {
		changed = f.setResult(v, 0, f.taintOf(args[0])) || changed
	}
	if !common.IsInvoke() {
		if fn, offset := ssax.Func(f.a.pkg, common.Value); fn != nil {
			changed = f.local(call, fn, offset) || changed
		}
	}
	return f.summarised(call, callee) || changed
}

// callback makes the first parameter of a closure of the unit that a call
// hands cached objects to (cache.ListAllByNamespace's AppendFunc) a source.
func (f *unit) callback(call ssa.CallInstruction, fnArg ssa.Value) bool {
	v, ok := call.(*ssa.Call)
	if !ok {
		return false
	}
	fn, offset := ssax.Func(f.a.pkg, fnArg)
	if fn == nil || offset != 0 || len(fn.Params) == 0 || !slices.Contains(f.fns, fn) {
		return false
	}
	src := f.source(v, 0, func() *source {
		return &source{call: v, desc: f.a.callText(v) + "'s callback", callback: true, param: -1}
	})
	return f.set(fn.Params[0], taint{b: shared, src: src})
}

// local applies the summaries of a package function: the writes it makes
// to the parameters that receive cached references, the results it
// returns from them, and the cached objects it returns of its own.
func (f *unit) local(call ssa.CallInstruction, fn *ssa.Function, offset int) bool {
	changed := false
	v := call.Value()
	for i, arg := range call.Common().Args {
		t := f.taintOf(arg)
		if t.b == 0 || i+offset >= len(fn.Params) {
			continue
		}
		s := f.a.paramSummary(fn, i+offset, t.b)
		if s == nil {
			continue
		}
		if s.write != nil {
			changed = f.addSink(call, call.Pos(), t.src) || changed
			f.a.via[call] = s.write
		}
		for j, r := range s.results {
			if v != nil && r.b != 0 {
				changed = f.setResult(v, j, taint{b: r.b, src: t.src}) || changed
			}
		}
	}
	if v != nil && f.sources {
		for j, r := range f.a.sourceSummary(fn) {
			if r.b == 0 {
				continue
			}
			inner := r.src
			src := f.source(v, j, func() *source {
				return &source{call: v, desc: f.a.callText(v) + " (" + inner.desc + ")", many: inner.many, index: j, param: -1}
			})
			changed = f.setResult(v, j, taint{b: r.b, src: src}) || changed
		}
	}
	return changed
}

// source returns the one source made at a call for its result i.
func (f *unit) source(call *ssa.Call, i int, mk func() *source) *source {
	k := tupleKey{call, i}
	if s, ok := f.made[k]; ok {
		return s
	}
	s := mk()
	f.made[k] = s
	return s
}

// builtin handles append, copy, delete and clear.
func (f *unit) builtin(call ssa.CallInstruction, b *ssa.Builtin, args []ssa.Value) bool {
	switch b.Name() {
	case "append":
		t := taint{}
		for _, a := range args {
			t = t.join(f.taintOf(a))
		}
		if v := call.Value(); v != nil {
			return f.set(v, holdsIf(t))
		}
	case "copy", "delete", "clear":
		if len(args) > 0 {
			if t := f.taintOf(args[0]); t.b&shared != 0 {
				return f.addSink(call, call.Pos(), t.src)
			}
		}
	}
	return false
}

// receiverAndArgs splits a call's operands into the receiver of a method
// (nil for a function) and the arguments proper.
func receiverAndArgs(common *ssa.CallCommon) (ssa.Value, []ssa.Value) {
	if common.IsInvoke() {
		return common.Value, common.Args
	}
	if fn := common.StaticCallee(); fn != nil && fn.Signature.Recv() != nil && len(common.Args) > 0 {
		return common.Args[0], common.Args[1:]
	}
	return nil, common.Args
}

// typeOf is v's type, nil for no value.
func typeOf(v ssa.Value) types.Type {
	if v == nil {
		return nil
	}
	return v.Type()
}
