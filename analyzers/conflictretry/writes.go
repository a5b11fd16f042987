package conflictretry

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// A write is a call that sends an object whose resourceVersion the API
// server checks: an Update or UpdateStatus, or a controller-runtime Patch
// built with MergeFromWithOptimisticLock (which carries the base's
// resourceVersion), made directly or through a helper of the package.
type write struct {
	call   ssa.CallInstruction
	pos    token.Pos
	method string        // for messages: "Update", "Status().Update", ...
	obj    ssa.Value     // the object whose resourceVersion is sent
	via    *ssa.Function // the helper that makes the write, if any
	err    ssa.Value     // the error the call returns, if it returns one
}

// writesIn lists the writes fn makes, in order.
func (c *checker) writesIn(fn *ssa.Function) []write {
	var out []write
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue // go and defer: not an attempt's write
			}
			if w, ok := clientWrite(call); ok {
				out = append(out, w)
				continue
			}
			out = append(out, c.helperWrites(call)...)
		}
	}
	return out
}

// clientWrite recognises Update and UpdateStatus of a typed client
// (clientset or generated), of the dynamic client and of
// controller-runtime's client (Update, and Update of its status writer),
// and a controller-runtime Patch with an optimistic lock.
func clientWrite(call *ssa.Call) (write, bool) {
	common := call.Common()
	fn, recv, args := ssax.MethodCall(common)
	if fn == nil {
		return write{}, false
	}
	w := write{call: call, pos: call.Pos(), method: fn.Name()}
	switch {
	case kube.IsTypedResourceClient(recv) || kube.IsDynamicResourceClient(recv):
		if args = kube.TypedArgs(fn, args); fn.Name() != "Update" && fn.Name() != "UpdateStatus" || len(args) < 1 {
			return write{}, false
		}
		w.obj = args[0]
		w.err = flow.Result(call, 1)
	case fn.Pkg() != nil && fn.Pkg().Path() == kube.CRClientPkg:
		if fn.Name() != "Update" && fn.Name() != "Patch" || len(args) < 2 {
			return write{}, false
		}
		_, recvName := kube.PathName(fn.Type().(*types.Signature).Recv().Type())
		switch recvName {
		case "Writer", "Client", "WithWatch", "client":
		case "SubResourceWriter", "SubResourceClient", "subResourceClient":
			if !statusWriter(ssax.Receiver(common)) {
				return write{}, false // another subresource, or a writer from elsewhere
			}
			w.method = "Status()." + fn.Name()
		default:
			return write{}, false
		}
		w.obj = args[1]
		w.err = call
		if fn.Name() == "Patch" {
			if len(args) < 3 {
				return write{}, false
			}
			base, ok := lockedBase(args[2])
			if !ok {
				return write{}, false // a patch without a resourceVersion does not conflict
			}
			w.obj = base
			w.method += " with MergeFromWithOptimisticLock"
		}
	default:
		return write{}, false
	}
	if w.pos == token.NoPos {
		w.pos = common.Pos()
	}
	return w, true
}

// lockedBase returns the base of a patch made by
// client.MergeFromWithOptions(base, ..., client.MergeFromWithOptimisticLock{}, ...):
// the patch carries base's resourceVersion as a precondition.
func lockedBase(patch ssa.Value) (ssa.Value, bool) {
	call, ok := flow.Origin(patch, flow.Conversions).(*ssa.Call)
	if !ok || !kube.IsFunc(ssax.Callee(call.Common()), kube.CRClientPkg, "MergeFromWithOptions") {
		return nil, false
	}
	args := call.Common().Args
	if len(args) != 2 {
		return nil, false
	}
	opts, _ := flow.Variadic(args[1])
	for _, opt := range opts {
		if kube.Is(flow.Origin(opt, flow.Conversions).Type(), kube.CRClientPkg, "MergeFromWithOptimisticLock") {
			return args[0], true
		}
	}
	return nil, false
}

// statusWriter reports whether a controller-runtime SubResourceWriter is
// the status writer: Status(), or SubResource("status").
func statusWriter(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	fn, _, args := ssax.MethodCall(call.Common())
	if !isCRClientMethod(fn) {
		return false
	}
	switch fn.Name() {
	case "Status":
		return true
	case "SubResource":
		if len(args) == 1 {
			if k, ok := args[0].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
				return constant.StringVal(k.Value) == "status"
			}
		}
	}
	return false
}

func isCRClientMethod(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kube.CRClientPkg {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() != nil
}

// helperWrites are the parameters a function of the package sends stale:
// it writes them (or copies of them) without reading them again.
type helperWrites struct {
	params map[int]write // by index in the function's Params
}

// helperWrites returns the writes a call of a function of the package
// makes of the arguments it is given, as writes of the call.
func (c *checker) helperWrites(call *ssa.Call) []write {
	fn := call.Common().StaticCallee()
	if fn == nil || fn.Pkg != c.pkg || fn.Blocks == nil || fn.Parent() != nil {
		return nil // not a declared function of the package
	}
	h := c.writerSummary(fn)
	var out []write
	for i, w := range h.params {
		if i >= len(call.Common().Args) {
			continue
		}
		out = append(out, write{
			call:   call,
			pos:    call.Pos(),
			method: w.method,
			obj:    call.Common().Args[i],
			via:    fn,
			err:    helperErr(call),
		})
	}
	return out
}

// helperErr is the error a helper call returns last, or nil.
func helperErr(call *ssa.Call) ssa.Value {
	res := call.Call.Signature().Results()
	if res.Len() == 0 || !isError(res.At(res.Len()-1).Type()) {
		return nil
	}
	if res.Len() == 1 {
		return call
	}
	return flow.Result(call, res.Len()-1)
}

// writerSummary says which parameters fn writes without reading them
// again (one level: the direct writes of fn, not those of its helpers).
func (c *checker) writerSummary(fn *ssa.Function) *helperWrites {
	if h, ok := c.writers[fn]; ok {
		return h
	}
	h := &helperWrites{params: make(map[int]write)}
	c.writers[fn] = h
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			w, ok := clientWrite(call)
			if !ok {
				continue
			}
			root, chain := staleRoot(w.obj)
			p, ok := root.(*ssa.Parameter)
			if !ok {
				continue
			}
			if c.anyRefreshed(append(chain, p)) {
				continue
			}
			i := slices.Index(fn.Params, p)
			if _, seen := h.params[i]; !seen && i >= 0 {
				h.params[i] = w
			}
		}
	}
	return h
}
