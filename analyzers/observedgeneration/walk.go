package observedgeneration

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// maxDepth bounds the hops of one walk (a variable, an enclosing literal,
// a helper): a condition goes through a few of them on its way to the
// status in real controllers.
const maxDepth = 8

// An end is where a condition's value is set: in the status of an object
// of the walk's function, or in conditions a parameter of it holds.
type end struct {
	// obj is the object (a pointer to it, or its value as flow.Same
	// traces it) whose status the condition is set in; nil for a
	// parameter end.
	obj ssa.Value
	// objType is the type obj has where its Status is selected.
	objType types.Type
	// param is the index of the walk function's parameter that is obj, or
	// (obj nil) that holds the conditions' place; -1 when neither.
	param int
	// status is obj.Status where the condition is set in the walk's
	// function (or a closure of it), whose source names the object; nil
	// when a helper sets it and the object is the call's argument.
	status *ssa.FieldAddr
	// call and arg: the call of the helper that sets it and the index of
	// the object among the call's arguments as written (-1: the method's
	// receiver).
	call ssa.CallInstruction
	arg  int
	// at is where the condition is set (the SetStatusCondition call, the
	// store, the call of the helper), via the helper's name.
	at  token.Pos
	via string
}

// A walk follows a condition's value forward in one function, to the
// places it ends: meta.SetStatusCondition of an object's conditions,
// stores into an object's status (an append, an element, a slice literal,
// an enclosing literal such as a Gateway API RouteParentStatus), or a
// helper of the package that does one of these with its parameter.
type walk struct {
	c    *checker
	fn   *ssa.Function
	ends []end
	// unknown is set when the condition goes where its ObservedGeneration
	// may be set: a variable whose field is written or whose address is
	// handed on, conditions handed to a function not followed here.
	unknown bool
	seen    map[ssa.Value]bool
}

func (w *walk) from(v ssa.Value, depth int) {
	if w.seen == nil {
		w.seen = make(map[ssa.Value]bool)
	}
	if w.seen[v] || depth > maxDepth {
		return
	}
	w.seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, ref := range *refs {
		switch r := ref.(type) {
		case *ssa.Phi:
			w.from(r, depth)
		case *ssa.Slice:
			w.from(r, depth)
		case *ssa.Store:
			if r.Val == v {
				w.store(r, depth)
			}
		case *ssa.Call:
			w.call(r, v, depth)
		case *ssa.Defer, *ssa.Go:
			if isSlice(v.Type()) {
				w.unknown = true
			}
		}
	}
}

// store follows a value stored: into an object's status (an end), a
// variable, an element of an array (the arguments of an append, a slice
// literal), or a field of an enclosing literal.
func (w *walk) store(st *ssa.Store, depth int) {
	if e, ok := w.placeEnd(st.Addr); ok {
		e.at = st.Pos()
		w.ends = append(w.ends, e)
		return
	}
	switch a := st.Addr.(type) {
	case *ssa.Alloc:
		w.variable(a, st, depth+1)
	case *ssa.IndexAddr:
		arr, ok := a.X.(*ssa.Alloc)
		if !ok {
			return // an element of a slice from elsewhere: not followed
		}
		for _, ref := range *arr.Referrers() {
			if s, ok := ref.(*ssa.Slice); ok {
				w.from(s, depth+1)
			}
		}
	case *ssa.FieldAddr:
		lit, ok := a.X.(*ssa.Alloc)
		if !ok || lit.Comment != "complit" {
			return // a field of a struct variable: not followed
		}
		for _, ref := range *lit.Referrers() {
			if load, ok := ref.(*ssa.UnOp); ok && load.Op == token.MUL {
				w.from(load, depth+1)
			}
		}
	}
}

// variable follows a value stored into a variable that SSA keeps in
// memory (one whose address is taken, or that a closure captures) to the
// loads the store reaches, unless the variable may be given an
// ObservedGeneration: a write of that field, its address handed on.
func (w *walk) variable(a *ssa.Alloc, st *ssa.Store, depth int) {
	var loads []*ssa.UnOp
	for _, ref := range *a.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != a {
				w.unknown = true
				return
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				w.unknown = true
				return
			}
			loads = append(loads, r)
		case *ssa.FieldAddr:
			if !onlyFieldUse(r) {
				w.unknown = true
				return
			}
		case *ssa.DebugRef:
		default:
			w.unknown = true // captured, or its address handed on
			return
		}
	}
	for _, load := range loads {
		writes, _ := flow.Reaching(load, func(i ssa.Instruction) bool {
			s, ok := i.(*ssa.Store)
			return ok && s.Addr == a || i == a
		})
		for _, wr := range writes {
			if wr == st {
				w.from(load, depth)
				break
			}
		}
	}
}

// call follows a value handed to a call: meta.SetStatusCondition's
// condition (an end), append's arguments (its result), a helper of the
// package (its summary).
func (w *walk) call(call *ssa.Call, v ssa.Value, depth int) {
	common := call.Common()
	if b, ok := common.Value.(*ssa.Builtin); ok {
		if b.Name() == "append" {
			w.from(call, depth)
		}
		return
	}
	args := common.Args
	if callee := ssax.Callee(common); kube.IsFunc(callee, kube.MetaPkg, "SetStatusCondition") {
		if len(args) == 2 && args[1] == v {
			if e, ok := w.placeEnd(args[0]); ok {
				e.at = call.Pos()
				w.ends = append(w.ends, e)
			}
		}
		return
	}
	fn, offset := ssax.Func(w.c.pkg, common.Value)
	if fn == nil || common.IsInvoke() {
		if isSlice(v.Type()) {
			w.unknown = true // conditions handed to code not followed: it may stamp them
		}
		return
	}
	for i, a := range args {
		if a != v || i+offset >= len(fn.Params) {
			continue
		}
		s := w.c.summaryOf(fn, i+offset, depth+1)
		if s.unknown {
			w.unknown = true
		}
		for _, ps := range s.sinks {
			w.mapSink(call, fn, offset, ps)
		}
	}
}

// mapSink turns what a helper does with the condition into an end of the
// walk's function: the helper's object parameter is the call's argument;
// the conditions' place it is handed is traced here.
func (w *walk) mapSink(call *ssa.Call, fn *ssa.Function, offset int, ps paramSink) {
	args := call.Common().Args
	via := fn.Name()
	if ps.obj != nil {
		// An object the helper reaches otherwise: a closure's captured
		// variable, of this function.
		if ps.obj.Parent() == w.fn {
			w.ends = append(w.ends, end{obj: ps.obj, objType: ps.objType, param: w.paramIndex(ps.obj), status: ps.status, at: call.Pos(), via: via})
		}
		return
	}
	i := ps.param - offset
	if i < 0 || i >= len(args) {
		return // a bound receiver: not an argument here
	}
	if ps.place {
		if e, ok := w.placeEnd(args[i]); ok {
			e.at, e.via = call.Pos(), via
			w.ends = append(w.ends, e)
		}
		return
	}
	obj := flow.Origin(args[i], flow.Same)
	arg := i
	if recv := fn.Signature.Recv(); recv != nil && offset == 0 {
		arg = i - 1 // the receiver is written before the method's name
	}
	w.ends = append(w.ends, end{obj: obj, objType: ps.objType, param: w.paramIndex(obj), call: call, arg: arg, at: call.Pos(), via: via})
}

// placeEnd reports whether addr is a place in the status of an object
// whose generation can be read (&obj.Status.Conditions,
// &route.Status.Parents[i].Conditions, obj.Status.Conditions[i]), or in
// conditions a parameter of the walk's function holds.
func (w *walk) placeEnd(addr ssa.Value) (end, bool) {
	for x := range flow.Chain(addr, flow.Within) {
		switch x := x.(type) {
		case *ssa.FieldAddr:
			if fieldName(x) == "Status" && hasGeneration(x.X.Type()) {
				if w.c.inObjectLiteral(x) {
					return end{}, false // an object being built: its generation is not known yet
				}
				obj := flow.Origin(x.X, flow.Same)
				return end{obj: obj, objType: x.X.Type(), param: w.paramIndex(obj), status: x, arg: -1}, true
			}
		case *ssa.Parameter:
			if i := w.paramIndex(x); i >= 0 {
				return end{param: i, arg: -1}, true
			}
		}
	}
	return end{}, false
}

// paramIndex is the index of v among the walk function's parameters, or
// -1.
func (w *walk) paramIndex(v ssa.Value) int {
	for i, p := range w.fn.Params {
		if p == v {
			return i
		}
	}
	return -1
}

// hasGeneration reports whether t (a pointer to an API type) has
// metadata.generation that moves with its spec: the Generation field of an
// embedded metav1.ObjectMeta, in a type that is not a built-in kind. A
// custom resource's generation is set on create and incremented on every
// change the API server keeps but metadata (apiextensions' strategy); a
// built-in kind's is its registry strategy's choice, and several kinds
// whose status holds metav1.Conditions leave it at 0 whatever their spec
// does (Service, ServiceCIDR, StorageVersionMigration,
// PodCertificateRequest in kubernetes v1.37).
func hasGeneration(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Generation")
	v, ok := obj.(*types.Var)
	if !ok || !v.IsField() || v.Pkg() == nil || v.Pkg().Path() != kube.MetaV1Pkg {
		return false
	}
	n := kube.Named(t)
	return n != nil && n.Obj().Pkg() != nil && kube.BuiltinGroup(n.Obj().Pkg().Path()) == ""
}

func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}
