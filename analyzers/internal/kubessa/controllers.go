package kubessa

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// A Controller is one chain of controller-runtime builder calls in a
// package: ctrl.NewControllerManagedBy(mgr).For(...).Owns(...)...Complete(r),
// whether written as one expression or through a variable.
type Controller struct {
	// Start is the value the chain starts from (the call of
	// NewControllerManagedBy, or a parameter holding a builder).
	Start              ssa.Value
	For, Owns, Watches []Watch
	// EventFilters are the arguments of WithEventFilter.
	EventFilters []*ssa.Call
	// Done are the Complete and Build calls; their argument is the
	// reconciler.
	Done []*ssa.Call
	// Unknown: a builder call whose object the analysis could not tell
	// (a Watches of a source built elsewhere, an object that is an
	// interface value): the controller may watch kinds not listed.
	Unknown bool
	// UnknownCalls are those builder calls.
	UnknownCalls []*ssa.Call
}

// A Watch is one kind a controller's builder asks the manager's cache to
// watch.
type Watch struct {
	Call   *ssa.Call
	Object types.Type // the named object type, such as appsv1.Deployment
}

// Controllers returns the builder chains of funcs, in the order their
// first call appears.
func Controllers(funcs []*ssa.Function) []*Controller {
	byStart := make(map[ssa.Value]*Controller)
	escaped := make(map[ssa.Value]bool)
	var out []*Controller
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				m, recv, args := ssax.MethodCall(call.Common())
				what := kube.BuilderCallOf(m, recv)
				if what == kube.NotBuilder {
					// A builder handed to another call may get watches
					// there (KubeRay's BatchSchedulerManager.ConfigureReconciler(b)).
					for _, a := range call.Call.Args {
						if kube.IsBuilder(a.Type()) {
							start, _ := chainStart(a)
							escaped[start] = true
						}
					}
					continue
				}
				start, helped := chainStart(ssax.Receiver(call.Common()))
				c := byStart[start]
				if c == nil {
					c = &Controller{Start: start}
					byStart[start] = c
					out = append(out, c)
				}
				c.Unknown = c.Unknown || helped
				c.add(what, call, args)
			}
		}
	}
	for _, c := range out {
		c.Unknown = c.Unknown || escaped[c.Start]
	}
	return out
}

func (c *Controller) add(what kube.BuilderCall, call *ssa.Call, args []ssa.Value) {
	watch := func(list *[]Watch, obj types.Type) {
		if obj == nil {
			c.Unknown = true
			c.UnknownCalls = append(c.UnknownCalls, call)
			return
		}
		*list = append(*list, Watch{Call: call, Object: obj})
	}
	switch what {
	case kube.BuilderFor, kube.BuilderOwns, kube.BuilderWatches:
		var obj types.Type
		if len(args) > 0 {
			obj = ObjectArg(args[0])
			if obj != nil && !kube.IsObjectType(obj) {
				obj = nil // a source, or a kind without metadata
			}
			if obj == nil && what == kube.BuilderWatches {
				obj = sourceKindObject(args[0]) // before v0.15: Watches(source, handler)
			}
		}
		switch what {
		case kube.BuilderFor:
			watch(&c.For, obj)
		case kube.BuilderOwns:
			watch(&c.Owns, obj)
		default:
			watch(&c.Watches, obj)
		}
	case kube.BuilderRawSource:
		var obj types.Type
		if len(args) > 0 {
			obj = sourceKindObject(args[0])
		}
		watch(&c.Watches, obj)
	case kube.BuilderEventFilter:
		c.EventFilters = append(c.EventFilters, call)
	case kube.BuilderDone:
		c.Done = append(c.Done, call)
	}
}

// Watched reports whether the controller watches objects of type t,
// through For, Owns or Watches.
func (c *Controller) Watched(t types.Type) bool {
	key := kube.ObjectKey(t)
	for _, list := range [][]Watch{c.For, c.Owns, c.Watches} {
		for _, w := range list {
			if kube.ObjectKey(w.Object) == key {
				return true
			}
		}
	}
	return false
}

// chainStart follows a builder value back through the calls that return
// their receiver to the value the chain started from, and through helpers
// handed the builder and returning it (`b = batchscheduler.ConfigureReconciler(b)`,
// KubeRay's ray-operator), which may add watches of their own: helped says
// the chain went through one.
func chainStart(v ssa.Value) (start ssa.Value, helped bool) {
	for steps := 0; steps < flow.MaxSteps; steps++ {
		v = flow.Origin(v, flow.Same)
		call, ok := v.(*ssa.Call)
		if !ok {
			return v, helped
		}
		m, recv, _ := ssax.MethodCall(call.Common())
		switch w := kube.BuilderCallOf(m, recv); w {
		case kube.BuilderDone:
			return v, helped
		case kube.NotBuilder:
			arg := builderArg(call)
			if arg == nil {
				return v, helped
			}
			v, helped = arg, true
		default:
			v = ssax.Receiver(call.Common())
		}
	}
	return v, helped
}

// builderArg returns the one builder a call that returns a builder is
// handed, nil when there is none or several.
func builderArg(call *ssa.Call) ssa.Value {
	if !kube.IsBuilder(call.Type()) {
		return nil
	}
	var arg ssa.Value
	for _, a := range call.Call.Args {
		if kube.IsBuilder(a.Type()) {
			if arg != nil {
				return nil
			}
			arg = a
		}
	}
	return arg
}

// ObjectArg returns the named type of the object an argument of type
// client.Object (or runtime.Object) holds: corev1.Secret for
// &corev1.Secret{}, the item type for a list (&corev1.SecretList{}); nil
// when it is not known here (an interface value handed in).
func ObjectArg(v ssa.Value) types.Type {
	var t types.Type
	for x := range flow.Chain(v, flow.Same) {
		if t = ssax.Boxed(x); t != nil {
			break
		}
	}
	if t == nil {
		// A type parameter's argument (source.Kind(cache, &T{}, ...)
		// since v0.19) is the pointer itself.
		if p, ok := types.Unalias(v.Type()).(*types.Pointer); ok {
			t = p.Elem()
		} else {
			return nil
		}
	}
	if item := kube.ListItem(t); item != nil {
		t = item
	}
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return nil
	}
	return t
}

// sourceKindObject returns the object type of a controller-runtime
// source.Kind: source.Kind(cache, &T{}, ...) since v0.15, or
// &source.Kind{Type: &T{}} before, built in the same function; nil
// otherwise.
func sourceKindObject(v ssa.Value) types.Type {
	v = flow.Origin(v, flow.Same)
	switch x := v.(type) {
	case *ssa.Call:
		fn := ssax.Callee(x.Common())
		if kube.IsSourceKind(fn) && len(x.Call.Args) >= 2 {
			return ObjectArg(x.Call.Args[1])
		}
	case *ssa.Alloc:
		if !kube.Is(kube.Pointee(x.Type()), kube.CRSourcePkg, "Kind") {
			return nil
		}
		var obj types.Type
		for _, ref := range *x.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok || ssax.FieldOfAddr(fa) == nil || ssax.FieldOfAddr(fa).Name() != "Type" {
				continue
			}
			for _, r := range *fa.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
					obj = ObjectArg(st.Val)
				}
			}
		}
		return obj
	}
	return nil
}

// AliasCallee is the function a call names, seeing through the variables
// of controller-runtime's root package that hold library functions
// (ctrl.SetControllerReference): pkg and name, or "" when it names none.
func AliasCallee(common *ssa.CallCommon) (pkg, name string) {
	if fn := ssax.Callee(common); fn != nil {
		if fn.Pkg() == nil {
			return "", ""
		}
		return fn.Pkg().Path(), fn.Name()
	}
	load, ok := common.Value.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", ""
	}
	g, ok := load.X.(*ssa.Global)
	if !ok || g.Pkg == nil || g.Pkg.Pkg.Path() != kube.ControllerRtPkg {
		return "", ""
	}
	p, n, ok := kube.CtrlAlias(g.Name())
	if !ok {
		return "", ""
	}
	return p, n
}

// OnlyMetadata reports whether a builder call's options (its variadic
// slice) include builder.OnlyMetadata.
func OnlyMetadata(args []ssa.Value) bool {
	if len(args) == 0 {
		return false
	}
	opts, _ := flow.Variadic(args[len(args)-1])
	for _, v := range opts {
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = mi.X
		}
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			if g, ok := load.X.(*ssa.Global); ok && g.Name() == "OnlyMetadata" && g.Pkg.Pkg.Path() == kube.CRBuilderPkg {
				return true
			}
		}
	}
	return false
}
