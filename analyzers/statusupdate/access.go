package statusupdate

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// An ident names one object within a function: the SSA value it starts
// from and the fields loaded on the way ("" for the value itself). Two
// loads of the same captured variable (r.obj, or a variable a closure
// shares) are the same ident, though they are different SSA values.
type ident struct {
	root ssa.Value
	path string
}

func (id ident) valid() bool { return id.root != nil }

// identOf names the object a value holds, looking through the conversions
// an object goes through on its way to a client (client.Object, a type
// assertion) and through apply-configuration builders, whose With* methods
// return their receiver.
func identOf(v ssa.Value) ident {
	v = strip(v)
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op != token.MUL {
			break
		}
		switch a := x.X.(type) {
		case *ssa.Alloc, *ssa.FreeVar, *ssa.Global:
			return ident{root: a} // a variable that lives in memory
		case *ssa.FieldAddr:
			base := identOf(a.X)
			return ident{root: base.root, path: base.path + "." + fieldName(a)}
		}
		if kube.IsObjectType(x.Type()) && !kube.IsPointer(x.Type()) {
			return identOf(x.X) // *p, the object p points to
		}
	case *ssa.FieldAddr:
		// &r.obj: an object held by value in a struct.
		base := identOf(x.X)
		return ident{root: base.root, path: base.path + "&" + fieldName(x)}
	}
	return ident{root: v}
}

// strip looks through conversions, type assertions and apply builders. A
// comma-ok assertion's value counts too: where it is used, the assertion
// held.
func strip(v ssa.Value) ssa.Value {
	for {
		v = flow.Origin(v, flow.Conversions|flow.Asserts)
		switch x := v.(type) {
		case *ssa.Extract:
			ta, ok := x.Tuple.(*ssa.TypeAssert)
			if !ok || x.Index != 0 {
				return v
			}
			v = ta.X
		case *ssa.Call:
			recv, ok := applyBuilder(x.Common())
			if !ok {
				return v
			}
			v = recv
		default:
			return v
		}
	}
}

// applyBuilder recognises a With* method of a client-go apply configuration
// (they return their receiver) and returns the receiver.
func applyBuilder(c *ssa.CallCommon) (ssa.Value, bool) {
	if c.IsInvoke() {
		return nil, false
	}
	fn := c.StaticCallee()
	if fn == nil || len(c.Args) == 0 || !strings.HasPrefix(fn.Name(), "With") {
		return nil, false
	}
	sig := fn.Signature
	if sig.Recv() == nil || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), sig.Recv().Type()) {
		return nil, false
	}
	path, name := kube.PathName(sig.Recv().Type())
	if !strings.HasPrefix(path, kube.ApplyConfigurationsPfx) && !strings.Contains(path, "/applyconfiguration") {
		return nil, false
	}
	if !strings.HasSuffix(name, "ApplyConfiguration") {
		return nil, false
	}
	return c.Args[0], true
}

func fieldName(fa *ssa.FieldAddr) string {
	if f := ssax.FieldOfAddr(fa); f != nil {
		return f.Name()
	}
	return "?"
}

// An access is where an address (or a map) points into an object: the
// outermost API object on the way from the address to where it comes
// from, and the fields from that object down to the address.
type access struct {
	obj    ident
	typ    types.Type // the object's type (a pointer)
	fields []string   // from the object: "Status", "Conditions", ...
	root   ssa.Value  // where the walk stopped, object or not
}

// accessOf walks an address back through field and element addresses and
// the loads of pointer, slice and map fields (o.Status.Conditions[i].Reason,
// o.Labels[k], *o.Spec.Replicas) to the object it belongs to.
func accessOf(v ssa.Value) access {
	var steps []string // fields, innermost first
	var acc access
	for x := range flow.Chain(v, flow.Fields|flow.Elements|flow.Loads) {
		acc.root = x
		switch x := x.(type) {
		case *ssa.FieldAddr:
			steps = append(steps, fieldName(x))
			if pt, ok := x.X.Type().Underlying().(*types.Pointer); ok && kube.IsObjectType(pt.Elem()) {
				acc.obj, acc.typ, acc.fields = identOf(x.X), x.X.Type(), reversed(steps)
			}
			continue
		case *ssa.IndexAddr, *ssa.Slice:
			continue
		case *ssa.UnOp:
			switch x.X.(type) {
			case *ssa.FieldAddr, *ssa.IndexAddr:
				continue // a pointer, slice or map loaded from a field, or an element of a slice of pointers
			}
		}
		return acc // a value, not an address into one
	}
	return acc
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}

// part says which part of an object a field path writes.
type part int

const (
	noPart     part = iota
	statusPart      // .status
	specPart        // .spec, or another top-level field but metadata
	metaPart        // labels, annotations, finalizers, owner references
)

// partOf classifies the fields of an access; for metaPart it returns the
// ObjectMeta field.
func partOf(fields []string) (part, string) {
	if len(fields) == 0 {
		return noPart, ""
	}
	switch fields[0] {
	case "Status":
		return statusPart, ""
	case "TypeMeta":
		return noPart, ""
	case "ObjectMeta":
		if len(fields) < 2 {
			return noPart, ""
		}
		switch f := fields[1]; f {
		case metaLabels, metaAnnotations, metaFinalizers, metaOwnerReferences:
			return metaPart, f
		}
		return noPart, ""
	}
	return specPart, fields[0]
}
