package cachesync

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// A request is where an informer is asked of a factory.
type request struct {
	at   ssa.Instruction // the Informer/Lister/InformerFor/ForResource call, or the call handing a handle over
	fn   *ssa.Function   // the function at is in
	what string          // "the Pod informer"
	res  string          // the resource, to match other requests of it ("" when unknown)
	// handover is true for a handle passed to another package's function.
	handover bool
	// key is the factory asked, as seen in fn (see factoryKey).
	key any
}

// directRequest recognises an informer request: a call of a factory's
// InformerFor or ForResource, or of a per-resource informer's Informer,
// TypedInformer or Lister. With a key, only requests of that factory.
func (c *checker) directRequest(instr ssa.Instruction, key any) (request, bool) {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return request{}, false
	}
	fn, recv, args := callee(call.Common())
	if recv == nil || !isInformerRequest(fn, recv.Type()) {
		return request{}, false
	}
	if key != nil && !derived(recv, key) {
		return request{}, false
	}
	r := request{at: instr, fn: instr.Parent(), key: chainKey(recv)}
	switch fn.Name() {
	case "InformerFor":
		if len(args) > 0 {
			if t := dynType(args[0]); t != nil {
				r.res = kube.ObjectKey(t)
				r.what = "the " + kube.Kind(t) + " informer"
			}
		}
		if r.what == "" {
			r.what = "an informer (InformerFor)"
		}
	case "ForResource":
		r.what = "an informer (ForResource)"
		if len(args) > 0 {
			r.res = gvrName(args[0])
		}
		if r.res != "" {
			r.what = "the " + r.res + " informer"
		}
	default:
		obj := kube.ObjectOf(recv.Type())
		if obj == nil {
			r.what = "an informer (" + fn.Name() + ")"
			break
		}
		r.res = kube.ObjectKey(obj)
		r.what = "the " + kube.Kind(obj) + " informer"
	}
	return r, true
}

// callRequests returns the requests of the factory key that a package
// function called (or launched) at call makes: on a parameter it is given
// the factory or a handle from it in, or, when the factory is a struct
// field, on that field.
func (c *checker) callRequests(call ssa.CallInstruction, key any, depth int, reached map[*ssa.Function]bool) []request {
	if depth == 0 {
		return nil
	}
	common := call.Common()
	h, offset := ssax.Func(c.pkg, common.Value)
	if h == nil || common.IsInvoke() {
		return nil
	}
	var keys []any
	for i, arg := range common.Args {
		if p := i + offset; p < len(h.Params) && derived(arg, key) {
			keys = append(keys, h.Params[p])
		}
	}
	if f, ok := key.(*types.Var); ok {
		keys = append(keys, f)
	}
	if len(keys) == 0 {
		return nil
	}
	reached[h] = true
	var out []request
	for _, b := range h.Blocks {
		for _, instr := range b.Instrs {
			for _, k := range keys {
				if r, ok := c.directRequest(instr, k); ok && !c.restarted(instr, k) {
					out = append(out, r)
				}
				if inner, ok := instr.(ssa.CallInstruction); ok {
					if _, isDefer := instr.(*ssa.Defer); !isDefer {
						out = append(out, c.callRequests(inner, k, depth-1, reached)...)
					}
				}
			}
		}
	}
	return out
}

// handOver recognises a per-resource informer handle from the factory
// passed to a function of another package after Start
// (NewController(factory.Apps().V1().Deployments())): the handle is only
// good for asking for the informer, so the callee asks now.
func (c *checker) handOver(call ssa.CallInstruction, key any) (request, bool) {
	common := call.Common()
	if c.local(common.Value) != nil {
		return request{}, false
	}
	fn, recv, args := callee(common)
	if fn == nil || (recv != nil && isInformerRequest(fn, recv.Type())) {
		return request{}, false
	}
	for _, arg := range args {
		v := flow.Origin(arg, flow.Conversions)
		if !isResourceInformer(v.Type()) || !derived(v, key) {
			continue
		}
		obj := kube.ObjectOf(v.Type())
		if obj == nil {
			continue
		}
		return request{at: call, fn: call.Parent(), what: "the " + kube.Kind(obj) + " informer", res: kube.ObjectKey(obj), handover: true}, true
	}
	return request{}, false
}

// handle recognises a call that obtains a per-resource informer handle
// from a factory (factory.Core().V1().Pods()).
func handle(instr ssa.Instruction) (request, bool) {
	call, ok := instr.(*ssa.Call)
	if !ok || !isResourceInformer(call.Type()) {
		return request{}, false
	}
	_, recv, _ := callee(call.Common())
	obj := kube.ObjectOf(call.Type())
	if recv == nil || obj == nil {
		return request{}, false
	}
	return request{at: instr, fn: instr.Parent(), res: kube.ObjectKey(obj), key: chainKey(recv)}, true
}

// dynType is the named type of an object passed as an interface
// (&corev1.Pod{} to InformerFor), or nil.
func dynType(v ssa.Value) types.Type {
	if t := ssax.Boxed(v); t != nil {
		if _, ok := types.Unalias(t).(*types.Named); ok {
			return t
		}
	}
	return nil
}

// gvrName names a GroupVersionResource held in a package variable, or "".
func gvrName(v ssa.Value) string {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if g, ok := load.X.(*ssa.Global); ok {
			return g.Name()
		}
	}
	return ""
}
