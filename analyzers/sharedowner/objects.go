package sharedowner

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// object is what one function does to a Kubernetes object it builds or
// fetches: the values its name, generateName and namespace are given
// (in a literal or by later stores), and whether it was fetched.
type object struct {
	typ          types.Type
	name         []ast.Expr
	generateName []ast.Expr
	namespace    []ast.Expr
	fetched      bool // from a lister or a client Get, not created here
}

// objects collects, for one function body, the objects bound to local
// variables.
type objects struct {
	pass *analysis.Pass
	vars map[*types.Var]*object
	lits map[*ast.CompositeLit]*object
}

func collectObjects(pass *analysis.Pass, body *ast.BlockStmt) *objects {
	o := &objects{pass: pass, vars: make(map[*types.Var]*object), lits: make(map[*ast.CompositeLit]*object)}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its own function
		case *ast.CompositeLit:
			o.literal(n)
		case *ast.AssignStmt:
			o.assign(n)
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if i < len(n.Values) {
					o.bind(id, n.Values[i], false)
				}
			}
		case *ast.CallExpr:
			o.call(n)
		}
		return true
	})
	return o
}

// literal records an object literal: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{...}}.
func (o *objects) literal(lit *ast.CompositeLit) *object {
	if obj, ok := o.lits[lit]; ok {
		return obj
	}
	t := o.pass.TypesInfo.TypeOf(lit)
	if !kube.IsObjectType(t) {
		return nil
	}
	obj := &object{typ: t}
	o.lits[lit] = obj
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "ObjectMeta" {
			if meta, ok := ast.Unparen(kv.Value).(*ast.CompositeLit); ok {
				o.meta(obj, meta)
			}
		}
	}
	return obj
}

// meta records the fields of an ObjectMeta literal.
func (o *objects) meta(obj *object, meta *ast.CompositeLit) {
	for _, elt := range meta.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		obj.set(key.Name, kv.Value)
	}
}

func (obj *object) set(field string, value ast.Expr) {
	switch field {
	case "Name":
		obj.name = append(obj.name, value)
	case "GenerateName":
		obj.generateName = append(obj.generateName, value)
	case "Namespace":
		obj.namespace = append(obj.namespace, value)
	}
}

// assign records `x := &T{...}`, `x, err := lister.Get(name)` and field
// stores `x.Name = ...`.
func (o *objects) assign(n *ast.AssignStmt) {
	if len(n.Rhs) == 1 && len(n.Lhs) == 2 {
		if id, ok := n.Lhs[0].(*ast.Ident); ok {
			o.bind(id, n.Rhs[0], true)
		}
		return
	}
	if len(n.Lhs) != len(n.Rhs) {
		return
	}
	for i, lhs := range n.Lhs {
		switch lhs := lhs.(type) {
		case *ast.Ident:
			o.bind(lhs, n.Rhs[i], false)
		case *ast.SelectorExpr:
			if obj := o.of(lhs.X); obj != nil {
				obj.set(lhs.Sel.Name, n.Rhs[i])
			} else if inner, ok := lhs.X.(*ast.SelectorExpr); ok && inner.Sel.Name == "ObjectMeta" {
				if obj := o.of(inner.X); obj != nil {
					obj.set(lhs.Sel.Name, n.Rhs[i]) // x.ObjectMeta.Name = ...
				}
			}
		}
	}
}

// bind ties a variable to the object its value builds or fetches.
func (o *objects) bind(id *ast.Ident, value ast.Expr, tuple bool) {
	v, ok := o.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok {
		return
	}
	value = ast.Unparen(value)
	if u, ok := value.(*ast.UnaryExpr); ok && u.Op == token.AND {
		value = ast.Unparen(u.X)
	}
	switch value := value.(type) {
	case *ast.CompositeLit:
		if obj := o.literal(value); obj != nil {
			o.vars[v] = obj
		}
	case *ast.CallExpr:
		if tuple && fetches(o.pass, value) && kube.IsObjectType(v.Type()) {
			o.vars[v] = &object{typ: v.Type(), fetched: true}
		}
		// y := x.DeepCopy() of a fetched x is still someone's object.
		if sel, ok := ast.Unparen(value.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "DeepCopy" {
			if src := o.of(sel.X); src != nil && src.fetched {
				o.vars[v] = &object{typ: v.Type(), fetched: true}
			}
		}
	}
}

// call records setters (x.SetName(...)) and controller-runtime's Get,
// which fills its object argument in place.
func (o *objects) call(call *ast.CallExpr) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if obj := o.of(sel.X); obj != nil && len(call.Args) == 1 {
		switch sel.Sel.Name {
		case "SetName":
			obj.set("Name", call.Args[0])
		case "SetGenerateName":
			obj.set("GenerateName", call.Args[0])
		case "SetNamespace":
			obj.set("Namespace", call.Args[0])
		}
	}
	if sel.Sel.Name == "Get" && len(call.Args) >= 3 && kube.IsCRReader(o.pass.TypesInfo.TypeOf(sel.X)) {
		target := ast.Unparen(call.Args[2])
		if u, ok := target.(*ast.UnaryExpr); ok && u.Op == token.AND {
			target = ast.Unparen(u.X)
		}
		if id, ok := target.(*ast.Ident); ok {
			if v, ok := o.pass.TypesInfo.Uses[id].(*types.Var); ok && kube.IsObjectType(v.Type()) {
				if obj := o.vars[v]; obj != nil {
					obj.fetched = true
				} else {
					o.vars[v] = &object{typ: v.Type(), fetched: true}
				}
			}
		}
	}
}

// of returns the object an expression denotes: a tracked variable (also
// through &x), or an object literal.
func (o *objects) of(e ast.Expr) *object {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch e := e.(type) {
	case *ast.Ident:
		if v, ok := o.pass.TypesInfo.Uses[e].(*types.Var); ok {
			return o.vars[v]
		}
	case *ast.CompositeLit:
		return o.literal(e)
	}
	return nil
}

// fetches reports whether a call reads an existing object: a lister's
// Get, or a typed clientset's Get.
func fetches(pass *analysis.Pass, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Get" {
		return false
	}
	recv := pass.TypesInfo.TypeOf(sel.X)
	return kube.IsLister(recv) || kube.IsTypedResourceClient(recv)
}
