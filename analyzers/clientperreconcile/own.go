package clientperreconcile

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// own reports whether v, the config or client a builder is handed in fn,
// is the controller's own: the same on every event. That is a field of the
// controller or a package variable, the process's own config
// (rest.InClusterConfig, ctrl.GetConfigOrDie, the manager's GetConfig), a
// copy of one of those with only its client settings changed, a client
// built from one, or a parameter every caller passes one of. Anything else
// (a kubeconfig read from a Secret, a config looked up by cluster, a
// parameter of unknown callers) is taken to address another cluster or
// user: a client per target is a design of its own, not reported.
func (c *checker) own(fn *ssa.Function, v ssa.Value, depth int, seen map[ssa.Value]bool) bool {
	if depth > maxDepth || seen[v] {
		return false
	}
	seen[v] = true
	if c.isController(v.Type()) {
		return c.theController(fn, v, depth, seen) // a field's owner, handed on
	}
	if ex, ok := v.(*ssa.Extract); ok && ex.Index != 0 {
		return false // the config or client is a call's first result
	}
	// The same value under another type, the call an extract is of, or
	// every value a φ merges: each must be the controller's own.
	if preds := flow.Preds(v, flow.Conversions|flow.Phis|flow.Extracts); len(preds) > 0 {
		for _, p := range preds {
			if !c.own(fn, p, depth, seen) {
				return false
			}
		}
		return true
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		if isFieldPath(v.X) {
			return c.stable(fn, v.X, depth, seen)
		}
		return c.own(fn, v.X, depth, seen) // a copy: *r.cfg, or a captured variable
	case *ssa.FieldAddr:
		return c.stable(fn, v, depth, seen) // &r.cfg
	case *ssa.Global:
		return true
	case *ssa.Alloc:
		return c.ownLocal(fn, v, depth, seen)
	case *ssa.Call:
		return c.ownCall(fn, v, depth, seen)
	case *ssa.Parameter, *ssa.FreeVar:
		return c.stable(fn, v, depth, seen)
	}
	return false
}

// ownLocal: a local variable holding a config, assigned only the
// controller's own, and none of whose fields naming the cluster or the
// user is changed.
func (c *checker) ownLocal(fn *ssa.Function, a *ssa.Alloc, depth int, seen map[ssa.Value]bool) bool {
	stored := false
	for _, ref := range *a.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == a {
			if !c.own(fn, st.Val, depth, seen) {
				return false
			}
			stored = true
		}
	}
	return stored && !retargeted(a)
}

// ownCall: a call that returns the controller's own config or a client
// built from it.
func (c *checker) ownCall(fn *ssa.Function, call *ssa.Call, depth int, seen map[ssa.Value]bool) bool {
	common := &call.Call
	if g := aliasVar(common.Value); g != nil {
		return g.Name() == "GetConfigOrDie" || g.Name() == "GetConfig"
	}
	callee := ssax.Callee(common)
	if callee == nil {
		return false
	}
	var recv types.Type
	if common.IsInvoke() {
		recv = common.Value.Type()
	} else if callee.Type().(*types.Signature).Recv() != nil && len(common.Args) > 0 {
		recv = common.Args[0].Type()
	}
	switch {
	case isOwnConfigSource(callee), isManagerConfig(callee, recv):
		return true
	case kube.IsFunc(callee, kube.RestPkg, "CopyConfig"):
		return len(common.Args) == 1 && c.own(fn, common.Args[0], depth, seen) && !retargeted(call)
	}
	if _, ok := clientBuilder(callee); ok && len(common.Args) > 0 {
		return c.own(fn, common.Args[0], depth, seen) // a client of the controller's config
	}
	// A helper of the package that returns one.
	helper := common.StaticCallee()
	if helper == nil || helper.Pkg != fn.Pkg || helper.Blocks == nil {
		return false
	}
	found := false
	for _, b := range helper.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		if !c.own(helper, ret.Results[0], depth+1, seen) {
			return false
		}
		found = true
	}
	return found
}

// clientSettings are the fields of rest.Config that change how a client
// talks to its cluster, not which cluster or as whom: a copy of the
// controller's config with only these set is still its own.
func clientSetting(field string) bool {
	switch field {
	case "QPS", "Burst", "RateLimiter", "UserAgent", "Timeout", "ContentConfig", "ContentType",
		"AcceptContentTypes", "NegotiatedSerializer", "GroupVersion", "APIPath", "WarningHandler",
		"WarningHandlerWithContext":
		return true
	}
	return false
}

// retargeted reports whether a field of the config at v other than a
// client setting is written: Host, credentials, TLS, impersonation make it
// a config for another cluster or user.
func retargeted(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		f := ssax.FieldOfAddr(fa)
		if f == nil || clientSetting(f.Name()) {
			continue
		}
		for _, r := range *fa.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
				return true
			}
			if _, ok := r.(*ssa.FieldAddr); ok {
				return true // a nested field written: TLSClientConfig.CAData
			}
		}
	}
	return false
}

// isFieldPath reports whether addr is the address of a struct field or of
// a package variable.
func isFieldPath(addr ssa.Value) bool {
	switch addr.(type) {
	case *ssa.FieldAddr, *ssa.Global:
		return true
	}
	return false
}

// stable reports whether v, a field's address or what it is taken from,
// is the controller or a package variable: the chain of fields starts at
// a value of a controller type, at a package variable, or at a parameter
// every caller in the package passes such a value to.
func (c *checker) stable(fn *ssa.Function, v ssa.Value, depth int, seen map[ssa.Value]bool) bool {
	for x := range flow.Chain(v, flow.Fields|flow.Loads) {
		if c.isController(x.Type()) {
			return c.theController(fn, x, depth, seen)
		}
		v = x
	}
	switch x := v.(type) {
	case *ssa.Global:
		return true
	case *ssa.Parameter:
		return c.fromCallers(fn, x, depth, seen)
	case *ssa.FreeVar:
		return c.fromClosure(fn, x, depth, seen)
	}
	return false
}

// theController reports whether v, a value of a controller type, is the
// controller: the receiver of a method the framework or a func-typed field
// calls (no call in the package names it), a parameter every caller passes
// the controller to, a variable captured from where the controller is, or
// a value made off the per-event path (the constructor's &Controller{}).
// One made on the path (`tmp := &Reconciler{cfg: remote}`) is not.
func (c *checker) theController(fn *ssa.Function, v ssa.Value, depth int, seen map[ssa.Value]bool) bool {
	// A load is a captured variable's value: the variable is the controller.
	switch x := flow.Origin(v, flow.Loads).(type) {
	case *ssa.Parameter:
		if len(c.callers[fn]) == 0 {
			return true
		}
		return c.fromCallers(fn, x, depth, seen)
	case *ssa.FreeVar:
		return c.fromClosure(fn, x, depth, seen)
	case *ssa.UnOp:
		return false // a receive
	case ssa.Instruction:
		return !c.onPath(x.Parent())
	}
	return true // a package variable, a constant
}

// isController reports whether t is (a pointer to) a controller type.
func (c *checker) isController(t types.Type) bool {
	for range 2 {
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && c.owners[n.Origin().Obj()]
}

// fromCallers: a parameter is the controller's own when every static call
// of fn in the package passes the controller's own (and there is one).
func (c *checker) fromCallers(fn *ssa.Function, p *ssa.Parameter, depth int, seen map[ssa.Value]bool) bool {
	i := slices.Index(fn.Params, p)
	calls := c.callers[fn]
	if i < 0 || len(calls) == 0 {
		return false // called through a value or from another package
	}
	for _, call := range calls {
		args := call.Common().Args
		if i >= len(args) || !c.own(call.Parent(), args[i], depth+1, seen) {
			return false
		}
	}
	return true
}

// fromClosure: a captured variable is what the enclosing function binds
// to it.
func (c *checker) fromClosure(fn *ssa.Function, fv *ssa.FreeVar, depth int, seen map[ssa.Value]bool) bool {
	bound := flow.Bindings(fv)
	for _, b := range bound {
		if !c.own(fn.Parent(), b, depth+1, seen) {
			return false
		}
	}
	return len(bound) > 0
}
