package statusupdate

import (
	"go/constant"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// A send is a client call that writes an object to the API server.
type send struct {
	kind    sendKind
	method  string // for messages: "Update", "Status().Update", "Patch", ...
	verb    string // the method called: "Update", "Patch", "Apply", ...
	typed   bool   // a typed clientset (false: controller-runtime)
	apply   bool
	mutate  bool // controllerutil.CreateOrUpdate: the writes of a mutate function
	objects []ident
	values  []ssa.Value // the values sent (for their types), one per object
	served  types.Type  // the object type the typed client serves, if known
	call    ssa.CallInstruction
}

type sendKind int

const (
	mainSend   sendKind = iota + 1 // Update, Patch or Apply of the main resource
	statusSend                     // the status subresource
	createSend                     // Create: persists spec and metadata, never reported
)

// clientSend recognises a client call that sends an object.
func clientSend(call ssa.CallInstruction) (send, bool) {
	common := call.Common()
	fn, recv, args := ssax.MethodCall(common)
	if fn == nil {
		return send{}, false
	}
	if fn.Name() == "Create" {
		return createOf(call, fn, recv, args)
	}
	w, ok := clientWriteOf(fn, recv)
	if !ok {
		return send{}, false
	}
	s := send{method: w.Method, verb: w.Method, typed: w.Typed, apply: w.Apply, served: w.Served, call: call}
	switch w.Kind {
	case mainWrite:
		s.kind = mainSend
	case statusWrite:
		s.kind = statusSend
	case subresourceWrite:
		sub, known := subresource(ssax.Receiver(common))
		switch {
		case !known, sub == "", sub == "status", sub == "approval":
			s.kind = statusSend
		default:
			return send{}, false // scale, eviction, ...: not this object's status or spec
		}
		if sub == "" {
			s.method = "Status()." + w.Method
		} else {
			s.method = "SubResource(" + strconv.Quote(sub) + ")." + w.Method
		}
	}
	if w.Object >= 0 {
		if w.Object < len(args) {
			s.objects, s.values = []ident{identOf(args[w.Object])}, []ssa.Value{args[w.Object]}
		}
		return s, true
	}
	// A typed Patch sends bytes: of the objects they are computed from,
	// to the subresources its variadic names say.
	if w.Subresources < len(args) {
		subs, ok := constStrings(args[w.Subresources])
		if !ok {
			return send{}, false
		}
		for _, sub := range subs {
			if sub == "status" {
				s.kind = statusSend
			} else {
				return send{}, false
			}
		}
	}
	if w.Data < len(args) {
		s.values = sources(args[w.Data])
		for _, v := range s.values {
			s.objects = append(s.objects, identOf(v))
		}
	}
	return s, len(s.objects) > 0
}

// createOf recognises Create on a typed client or controller-runtime's
// client.
func createOf(call ssa.CallInstruction, fn *types.Func, recv types.Type, args []ssa.Value) (send, bool) {
	i := -1
	switch {
	case kube.IsTypedResourceClient(recv):
		args, i = kube.TypedArgs(fn, args), 0
	case fn.Pkg() != nil && fn.Pkg().Path() == kube.CRClientPkg:
		if _, name := kube.PathName(recv); name == "SubResourceWriter" || name == "SubResourceClient" {
			return send{}, false
		}
		i = 1
	}
	if i < 0 || i >= len(args) {
		return send{}, false
	}
	return send{kind: createSend, method: "Create", verb: "Create", objects: []ident{identOf(args[i])}, values: []ssa.Value{args[i]}, call: call}, true
}

// subresource says which subresource a controller-runtime SubResourceWriter
// writes: "" for Status(), the name given to SubResource(name) when it is a
// constant. known is false when the writer comes from elsewhere (a field, a
// parameter).
func subresource(v ssa.Value) (sub string, known bool) {
	call, ok := v.(*ssa.Call)
	if !ok {
		return "", false
	}
	fn, _, args := ssax.MethodCall(call.Common())
	switch {
	case isStatusSubresourceClient(fn):
		return "", true
	case isSubresourceClient(fn) && len(args) == 1:
		if c, ok := args[0].(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
			return constant.StringVal(c.Value), true
		}
	}
	return "", false
}

// constStrings returns the strings of a variadic ...string argument: nil
// for none, ok false when any is not a constant.
func constStrings(v ssa.Value) ([]string, bool) {
	values, ok := flow.Variadic(v)
	if !ok {
		return nil, false
	}
	var out []string
	for _, v := range values {
		c, ok := v.(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.String {
			return nil, false
		}
		out = append(out, constant.StringVal(c.Value))
	}
	return out, true
}

// sources returns the objects that patch bytes are computed from: objects
// handed whole to the calls that make them (json.Marshal(pod),
// strategicpatch.CreateTwoWayMergePatch(old, new, ...), a package helper),
// not objects whose fields are merely read (a name in a hand-written
// patch).
func sources(data ssa.Value) []ssa.Value {
	var out []ssa.Value
	seen := make(map[ssa.Value]bool)
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		if v == nil || seen[v] || depth > 12 {
			return
		}
		seen[v] = true
		if isObjectValue(v) {
			out = append(out, v)
			return
		}
		preds := flow.Preds(v, flow.Conversions|flow.Phis|flow.Extracts)
		switch x := v.(type) {
		case *ssa.Convert:
			preds = []ssa.Value{x.X}
		case *ssa.Slice:
			preds = []ssa.Value{x.X}
		case *ssa.UnOp:
			if _, ok := x.X.(*ssa.Alloc); ok {
				preds = []ssa.Value{x.X}
			}
		case *ssa.Alloc:
			// A local variable: what is stored in it.
			for _, ref := range *x.Referrers() {
				if st, ok := ref.(*ssa.Store); ok && st.Addr == x {
					preds = append(preds, st.Val)
				}
			}
		case *ssa.Call:
			preds = x.Call.Args
		}
		for _, p := range preds {
			walk(p, depth+1)
		}
	}
	walk(data, 0)
	return out
}

// isObjectValue reports whether v is an API object or a pointer to one.
func isObjectValue(v ssa.Value) bool {
	t := v.Type()
	if _, ok := t.Underlying().(*types.Interface); ok {
		return false
	}
	return kube.IsObjectType(t)
}
