package cachescope

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// selects is what a predicate picks objects by, among what a cache
// restriction can pick them by too (a Label selector, a metadata.name
// Field selector, Namespaces): such a predicate shows the author wanted
// only some objects of the kind, and a predicate filters events, not the
// informer (controller-runtime#3552).
type selects uint8

const (
	byLabels selects = 1 << iota
	byName
	byNamespace
)

// selections name each kind of selection: what a predicate reads, and
// the ByObject field that selects the same in the cache.
var selections = []struct {
	by             selects
	read, restrict string
}{
	{byLabels, "labels", "a Label selector"},
	{byName, "name", "a metadata.name Field selector"},
	{byNamespace, "namespace", "Namespaces"},
}

// String names what the predicate selects by, for a message.
func (s selects) String() string { return strings.Join(s.names(false), " and ") }

// names are what s reads, or the ByObject fields that select the same.
func (s selects) names(restrict bool) []string {
	var out []string
	for _, sel := range selections {
		if s&sel.by == 0 {
			continue
		}
		if restrict {
			out = append(out, sel.restrict)
		} else {
			out = append(out, sel.read)
		}
	}
	return out
}

// maxPredicateDepth bounds the predicates followed into (And, a filter
// function handing its object on).
const maxPredicateDepth = 4

// watchSelects returns what the predicates of a builder watch (its
// builder.WithPredicates options, and the controller's WithEventFilter)
// select its objects by.
func watchSelects(c *kubessa.Controller, w kubessa.Watch) selects {
	var s selects
	_, _, args := ssax.MethodCall(w.Call.Common())
	if len(args) > 1 {
		opts, _ := flow.Variadic(args[len(args)-1])
		for _, o := range opts {
			s |= optionSelects(o)
		}
	}
	for _, f := range c.EventFilters {
		if len(f.Call.Args) == 2 {
			s |= predicateSelects(f.Call.Args[1], 0)
		}
	}
	return s
}

// optionSelects returns what a builder option selects by, when it is
// builder.WithPredicates(...).
func optionSelects(v ssa.Value) selects {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	call, ok := flow.Origin(v, flow.Same).(*ssa.Call)
	if !ok || !kube.IsFunc(ssax.Callee(call.Common()), kube.CRBuilderPkg, "WithPredicates") || len(call.Call.Args) != 1 {
		return 0
	}
	return predicatesSelect(call.Call.Args[0], 0)
}

// predicatesSelect returns what a variadic list of predicates selects
// by together: every predicate of the list must pass.
func predicatesSelect(list ssa.Value, depth int) selects {
	preds, _ := flow.Variadic(list)
	var s selects
	for _, p := range preds {
		s |= predicateSelects(p, depth)
	}
	return s
}

// predicateSelects returns what the predicate v selects objects by:
// predicate.LabelSelectorPredicate selects by labels; a filter given to
// predicate.NewPredicateFuncs by what it reads of its object; And by
// what any of its predicates does. Anything else selects by nothing
// known here.
func predicateSelects(v ssa.Value, depth int) selects {
	if depth > maxPredicateDepth {
		return 0
	}
	v = flow.Origin(v, flow.Same)
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = flow.Origin(mi.X, flow.Same)
	}
	if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
		v = ex.Tuple // p, err := predicate.LabelSelectorPredicate(sel)
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return 0
	}
	fn := ssax.Callee(call.Common())
	args := call.Call.Args
	switch {
	case kube.IsFunc(fn, kube.CRPredicatePkg, "LabelSelectorPredicate"):
		return byLabels
	case (kube.IsFunc(fn, kube.CRPredicatePkg, "NewPredicateFuncs") || kube.IsFunc(fn, kube.CRPredicatePkg, "NewTypedPredicateFuncs")) && len(args) == 1:
		return filterSelects(args[0], depth+1)
	case kube.IsFunc(fn, kube.CRPredicatePkg, "And") && len(args) == 1:
		return predicatesSelect(args[0], depth+1)
	}
	return 0
}

// filterSelects returns what a filter function (func(obj) bool) selects
// objects by: the metadata it reads of its object, when it reads nothing
// else of it (its labels, name or namespace, through the getters or the
// fields, of the object or of the typed object it asserts it is), and
// hands it to no other code but a function of the package doing the same
// (a method value, a helper).
func filterSelects(v ssa.Value, depth int) selects {
	var fn *ssa.Function
	switch x := flow.Origin(v, flow.Same).(type) {
	case *ssa.MakeClosure:
		fn, _ = x.Fn.(*ssa.Function)
	case *ssa.Function:
		fn = x
	}
	if fn == nil || len(fn.Blocks) == 0 || len(fn.Params) == 0 {
		return 0
	}
	s := objectSelects(fn.Params[len(fn.Params)-1], depth)
	if s&readsOther != 0 {
		return 0
	}
	return s
}

// readsOther marks, in what a filter's uses of its object read, a use
// that reads something else, or is not followed.
const readsOther selects = 1 << 7

// objectSelects returns what the uses of obj, a filter's object, read of
// it.
func objectSelects(obj ssa.Value, depth int) selects {
	if depth > maxPredicateDepth {
		return readsOther
	}
	var s selects
	for _, ref := range *obj.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			s |= callSelects(r, obj, depth)
		case *ssa.FieldAddr:
			s |= metaFieldSelects(r)
		case *ssa.TypeAssert:
			// pod, ok := obj.(*corev1.Pod) (lws's pod controller)
			if !r.CommaOk {
				s |= objectSelects(r, depth+1)
				continue
			}
			for _, use := range *r.Referrers() {
				if ex, ok := use.(*ssa.Extract); ok && ex.Index == 0 {
					s |= objectSelects(ex, depth+1)
				} else if !ok {
					s |= readsOther
				}
			}
		default:
			s |= readsOther
		}
	}
	return s
}

// callSelects returns what a call using obj reads of it: a metadata
// getter called on it, or a function of the package handed it (a method
// value's wrapper, a helper) reading only metadata.
func callSelects(call *ssa.Call, obj ssa.Value, depth int) selects {
	common := call.Common()
	if common.IsInvoke() {
		if common.Value != obj || slices.Contains(common.Args, obj) {
			return readsOther
		}
		return getterSelects(common.Method.Name())
	}
	callee := common.StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 { // only the package's own functions have bodies
		return readsOther
	}
	var s selects
	for i, a := range common.Args {
		if a == obj {
			s |= objectSelects(callee.Params[i], depth+1)
		}
	}
	return s
}

// metaFieldSelects returns what a typed filter's object (*corev1.Secret)
// reads through fa, the address of its embedded ObjectMeta: the getters
// called on it, or the Labels, Name and Namespace fields loaded.
func metaFieldSelects(fa *ssa.FieldAddr) selects {
	f := ssax.FieldOfAddr(fa)
	if f == nil || !f.Embedded() || !kube.Is(f.Type(), kube.MetaV1Pkg, "ObjectMeta") {
		return readsOther
	}
	var s selects
	for _, ref := range *fa.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			m, _, args := ssax.MethodCall(r.Common())
			if m == nil || ssax.Receiver(r.Common()) != ssa.Value(fa) || slices.Contains(args, ssa.Value(fa)) {
				return readsOther
			}
			s |= getterSelects(m.Name())
		case *ssa.FieldAddr:
			g := ssax.FieldOfAddr(r)
			if g == nil || !onlyLoaded(r) || fieldSelects[g.Name()] == 0 {
				return readsOther
			}
			s |= fieldSelects[g.Name()]
		default:
			return readsOther
		}
	}
	return s
}

// onlyLoaded reports whether the address v is only read.
func onlyLoaded(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		if load, ok := ref.(*ssa.UnOp); !ok || load.Op != token.MUL {
			if _, debug := ref.(*ssa.DebugRef); !debug {
				return false
			}
		}
	}
	return true
}

var fieldSelects = map[string]selects{"Labels": byLabels, "Name": byName, "Namespace": byNamespace}

// getterSelects is what a metadata getter reads.
func getterSelects(method string) selects {
	switch method {
	case "GetLabels":
		return byLabels
	case "GetName":
		return byName
	case "GetNamespace":
		return byNamespace
	}
	return readsOther
}
