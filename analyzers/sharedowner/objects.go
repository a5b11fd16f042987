package sharedowner

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
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
	// strs holds the values given to the function's local strings, which
	// names are built from (name := cm.Name + "-copy").
	strs map[*types.Var][]ast.Expr
	// keys holds the name each object variable was read by (a lister's or
	// a client's Get); reads lists every such name.
	keys  map[*types.Var]ast.Expr
	reads []ast.Expr
}

func collectObjects(pass *analysis.Pass, body *ast.BlockStmt) *objects {
	o := &objects{pass: pass, vars: make(map[*types.Var]*object), lits: make(map[*ast.CompositeLit]*object),
		strs: make(map[*types.Var][]ast.Expr), keys: make(map[*types.Var]ast.Expr)}
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
					o.str(id, n.Values[i])
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
			if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
				if key := o.readKey(call); key != nil {
					if v, ok := o.pass.TypesInfo.ObjectOf(id).(*types.Var); ok {
						o.keys[v] = key
					}
				}
			}
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
			o.str(lhs, n.Rhs[i])
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

// str records a value given to a local string variable.
func (o *objects) str(id *ast.Ident, value ast.Expr) {
	v, ok := o.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.Parent() == nil || v.Parent().Parent() == types.Universe {
		return // blank, or a package-level variable
	}
	if b, ok := v.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
		o.strs[v] = append(o.strs[v], value)
	}
}

// call records setters (x.SetName(...)) and controller-runtime's Get,
// which fills its object argument in place.
func (o *objects) call(call *ast.CallExpr) {
	key := o.readKey(call)
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if key != nil && len(call.Args) >= 3 {
		// r.Get(ctx, client.ObjectKey{Name: key}, &src): src is named key.
		if id := ssax.RootIdent(call.Args[2]); id != nil {
			if v, ok := o.pass.TypesInfo.Uses[id].(*types.Var); ok {
				o.keys[v] = key
			}
		}
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

// readKey returns the name a call reads an object by: a lister's
// Get(name), a typed client's Get(ctx, name, opts), controller-runtime's
// Get(ctx, client.ObjectKey{Name: name}, obj), also through a reconciler
// that embeds the client. It records the name among the function's reads.
func (o *objects) readKey(call *ast.CallExpr) ast.Expr {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Get" {
		return nil
	}
	var key ast.Expr
	recv := o.pass.TypesInfo.TypeOf(sel.X)
	fn := typeutilCallee(o.pass, call)
	switch {
	case kube.IsLister(recv) && len(call.Args) == 1:
		key = call.Args[0]
	case kube.IsTypedResourceClient(recv) && fn != nil:
		if args := kube.TypedArgs(fn, call.Args); len(args) >= 1 {
			key = args[0] // Get([ctx, ]name, opts)
		}
	case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == kube.CRClientPkg && len(call.Args) >= 3:
		lit, ok := ast.Unparen(call.Args[1]).(*ast.CompositeLit)
		if !ok {
			return nil // req.NamespacedName: the request's own object
		}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Name" {
					key = kv.Value
				}
			}
		}
	}
	if key == nil {
		return nil
	}
	for _, r := range o.reads {
		if r == key {
			return key
		}
	}
	o.reads = append(o.reads, key)
	return key
}

// readsBy reports whether the function reads an object by the name e
// (the same expression of the same variable).
func (o *objects) readsBy(e ast.Expr) bool {
	root := ssax.RootIdent(e)
	if root == nil {
		return false
	}
	for _, r := range o.reads {
		rr := ssax.RootIdent(r)
		if rr != nil && o.pass.TypesInfo.Uses[rr] == o.pass.TypesInfo.Uses[root] && types.ExprString(r) == types.ExprString(e) {
			return true
		}
	}
	return false
}
