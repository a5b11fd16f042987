package sharedowner

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// What a part of a child's name is made of.
type origin int

const (
	// opaque: a parameter, a call, a value this function cannot trace. It
	// may well be unique per owner, so a name with such a part is not
	// reported.
	opaque  origin = iota
	ownerID        // the owner's name or UID: unique per owner
	// referenced: the name of an object the code reaches through a
	// reference (a LocalObjectReference, a SecretKeySelector, an
	// IngressTLS's SecretName, a key of a Get): several owners may name
	// the same one.
	referenced
	// read: a string the function reads an object by (r.Get(ctx,
	// client.ObjectKey{Name: w.Spec.SecretName}, &src)): another object's
	// name, unless the child is that very object.
	read
)

// derivation is what a child's name is built from.
type derivation struct {
	owner    bool     // some part is the owner's name or UID
	opaque   bool     // some part cannot be traced
	from     ast.Expr // the first part naming another object
	compound bool     // the name adds to that part (a suffix, a Sprintf)
	how      origin   // referenced or read
}

// namer classifies the parts of a child's name within one function body.
type namer struct {
	c     *checker
	owner types.Object
	seen  map[*types.Var]bool // string variables being traced (cycles)
}

// namedAfterOther reports the expression of another object's name a
// child's name is built from, with constants only, and nothing of the
// owner's: every owner that references that object builds the same name.
func (c *checker) namedAfterOther(s setting) ast.Expr {
	if len(s.child.name) != 1 || len(s.child.generateName) > 0 {
		return nil // several stores, or a generated name: not this shape
	}
	oid := ownerIdent(s.owner)
	if oid == nil {
		return nil // an owner this function does not name: nothing to compare with
	}
	n := &namer{c: c, owner: c.pass.TypesInfo.Uses[oid], seen: make(map[*types.Var]bool)}
	var d derivation
	n.walk(s.child.name[0], &d, 0)
	switch {
	case d.owner || d.opaque || d.from == nil:
		return nil
	case d.how == read && !d.compound:
		return nil // the child is the object read by that name (its current state)
	}
	return d.from
}

// ownerIdent is the variable an owner expression names: w in &w, w, w.DeepCopy().
func ownerIdent(e ast.Expr) *ast.Ident {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 0 {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "DeepCopy" {
			e = ast.Unparen(sel.X)
		}
	}
	id, _ := e.(*ast.Ident)
	return id
}

const maxDepth = 6

// walk classifies the parts of a string expression into d.
func (n *namer) walk(e ast.Expr, d *derivation, depth int) {
	e = ast.Unparen(e)
	info := n.c.pass.TypesInfo
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return // a constant
	}
	if depth > maxDepth {
		d.opaque = true
		return
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		d.compound = true
		n.walk(e.X, d, depth+1)
		n.walk(e.Y, d, depth+1)
		return
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			n.walk(e.Args[0], d, depth+1) // string(certRef.Name)
			return
		}
		if fn := typeutilCallee(n.c.pass, e); kube.IsFunc(fn, "fmt", "Sprintf") || kube.IsFunc(fn, "fmt", "Sprint") {
			d.compound = true
			for _, a := range e.Args {
				n.walk(a, d, depth+1)
			}
			return
		}
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		if !ok || v == n.owner {
			break
		}
		values, local := n.c.objs.strs[v]
		if !local || n.seen[v] {
			break // a parameter, a field, or a cycle
		}
		n.seen[v] = true
		defer delete(n.seen, v)
		for _, val := range values {
			n.walk(val, d, depth+1)
		}
		return
	}
	switch o, at := n.part(e, depth); o {
	case ownerID:
		d.owner = true
	case referenced, read:
		if d.from == nil {
			d.from, d.how = at, o
		}
	default:
		d.opaque = true
	}
}

// part classifies one leaf of a name: a selector or a getter call.
func (n *namer) part(e ast.Expr, depth int) (origin, ast.Expr) {
	o, at := n.leaf(e, depth)
	if o == opaque && n.c.objs.readsBy(e) {
		return read, e
	}
	return o, at
}

// leaf classifies a selector or getter by what it selects from.
func (n *namer) leaf(e ast.Expr, depth int) (origin, ast.Expr) {
	info := n.c.pass.TypesInfo
	var x ast.Expr // the object or reference the name is read from
	field := ""
	switch e := e.(type) {
	case *ast.SelectorExpr:
		x, field = e.X, e.Sel.Name
		if sel, ok := info.Selections[e]; ok && isReferenceField(sel) {
			return referenced, e
		}
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok || len(e.Args) != 0 {
			return opaque, e
		}
		x, field = sel.X, strings.TrimPrefix(sel.Sel.Name, "Get")
	default:
		return opaque, e
	}
	if field != "Name" && field != "UID" {
		return opaque, e
	}
	x = ast.Unparen(x)
	if inner, ok := x.(*ast.SelectorExpr); ok && inner.Sel.Name == "ObjectMeta" {
		x = ast.Unparen(inner.X) // owner.ObjectMeta.Name
	}
	if u, ok := x.(*ast.UnaryExpr); ok {
		x = ast.Unparen(u.X)
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return opaque, e
	}
	obj := info.Uses[id]
	if obj == n.owner {
		return ownerID, e
	}
	v, ok := obj.(*types.Var)
	if !ok || field != "Name" {
		return opaque, e
	}
	// Another object's name: what it was read by, or built with, decides.
	var d derivation
	if key, ok := n.c.objs.keys[v]; ok {
		n.walk(key, &d, depth+1)
	} else if o := n.c.objs.vars[v]; o != nil && !o.fetched && len(o.name) == 1 {
		n.walk(o.name[0], &d, depth+1)
	} else {
		return opaque, e
	}
	switch {
	case d.owner:
		return ownerID, e
	case d.opaque || d.from == nil:
		return opaque, e
	case d.how == read && !d.compound:
		return read, e // read by a spec string: may be the owner's own output
	}
	return referenced, e
}

// isReferenceField reports whether a selected field names another object:
// the Name of a reference type (core/v1's LocalObjectReference,
// ObjectReference, SecretReference, the key selectors and env sources,
// gateway-api's SecretObjectReference, a custom FooRef), or a string field
// that k8s.io/api declares as another object's name.
func isReferenceField(sel *types.Selection) bool {
	if sel.Kind() != types.FieldVal {
		return false
	}
	holder := fieldHolder(sel)
	if holder == nil {
		return false
	}
	path, name := kube.PathName(holder)
	field := sel.Obj().Name()
	switch {
	case path == kube.MetaV1Pkg:
		return false // OwnerReference: the owner's own name
	case path == "k8s.io/api/networking/v1" && name == "IngressTLS" && field == "SecretName",
		path == "k8s.io/api/core/v1" && name == "SecretVolumeSource" && field == "SecretName":
		return true
	case field != "Name":
		return false
	}
	for _, suffix := range []string{"Reference", "Ref", "KeySelector", "EnvSource", "Projection", "VolumeSource"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// fieldHolder is the named struct that declares a selected field, through
// embedded fields (ConfigMapVolumeSource.Name is LocalObjectReference's).
func fieldHolder(sel *types.Selection) types.Type {
	t := sel.Recv()
	idx := sel.Index()
	for i, k := range idx {
		u := types.Unalias(t)
		if p, ok := u.(*types.Pointer); ok {
			u = types.Unalias(p.Elem())
		}
		st, ok := u.Underlying().(*types.Struct)
		if !ok || k >= st.NumFields() {
			return nil
		}
		if i == len(idx)-1 {
			return t
		}
		t = st.Field(k).Type()
	}
	return nil
}
