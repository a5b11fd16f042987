package sharedowner

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
)

// Controllers often build the owner reference in a helper, of their own
// package or of a util package of the module (kubernetes' statefulset
// addControllerRef, cluster-api's ownerrefs.OwnerReferenceTo,
// prometheus-operator's WithManagingOwner): what the helper returns or
// sets is summarised (ownerFact) and the caller's check is fed the
// argument the reference names.

// ownerFact is what a function does with owner references, by itself:
// returns one naming a parameter, or sets one naming a parameter on
// another parameter. Parameters are numbered with the receiver first for
// a method.
type ownerFact struct {
	// Returns says the function returns an owner reference (or a slice
	// holding one) to parameter Owner on every path that returns one.
	Returns    bool
	Owner      int
	Controller bool // a controller reference on every such path
	Sets       []setOn
}

// setOn is an owner reference to parameter Owner set on parameter Child,
// or, with FromRef, the reference handed in parameter Owner
// (addOwnerRefToObject(o metav1.Object, r metav1.OwnerReference)).
type setOn struct {
	Child, Owner int
	Controller   bool
	FromRef      bool
}

func (*ownerFact) AFact() {}

func (f *ownerFact) String() string {
	var parts []string
	if f.Returns {
		parts = append(parts, "returns "+describeRef(f.Owner, f.Controller))
	}
	for _, s := range f.Sets {
		if s.FromRef {
			parts = append(parts, fmt.Sprintf("sets on #%d the reference #%d", s.Child, s.Owner))
			continue
		}
		parts = append(parts, fmt.Sprintf("sets on #%d %s", s.Child, describeRef(s.Owner, s.Controller)))
	}
	return "sharedowner(" + strings.Join(parts, "; ") + ")"
}

func describeRef(owner int, controller bool) string {
	kind := "owner"
	if controller {
		kind = "controller"
	}
	return fmt.Sprintf("%s of #%d", kind, owner)
}

// summaries computes the summaries of the package's functions, by
// themselves (no helper's summary is used), and exports those of its
// exported functions and methods when the package exports summaries.
func summaries(pass *analysis.Pass, src *kube.Source, decls []*ast.FuncDecl) map[*types.Func]*ownerFact {
	out := make(map[*types.Func]*ownerFact)
	exports := summary.Exports(pass)
	for _, decl := range decls {
		fn, ok := pass.TypesInfo.Defs[decl.Name].(*types.Func)
		if !ok || decl.Body == nil {
			continue
		}
		f := summarise(pass, src, decl, fn)
		if f == nil {
			continue
		}
		out[fn] = f
		if exports && fn.Exported() {
			pass.ExportObjectFact(fn, f)
		}
	}
	return out
}

// helpers returns how the package's checks find a callee's summary: a
// function of the package by its own summary, one of a package it imports
// directly by its fact (package summary's rules).
func helpers(pass *analysis.Pass, local map[*types.Func]*ownerFact) func(*types.Func) *ownerFact {
	return func(fn *types.Func) *ownerFact {
		if fn == nil || fn.Pkg() == nil {
			return nil
		}
		fn = fn.Origin()
		if fn.Pkg() == pass.Pkg {
			return local[fn]
		}
		f := new(ownerFact)
		if !summary.Visible(pass, fn) || !pass.ImportObjectFact(fn, f) {
			return nil
		}
		return f
	}
}

// summarise computes what one function does with owner references.
func summarise(pass *analysis.Pass, src *kube.Source, decl *ast.FuncDecl, fn *types.Func) *ownerFact {
	params := paramIndex(fn)
	if refResult(fn.Type().(*types.Signature)) < 0 && len(params) < 2 {
		return nil // returns no reference, and has no child and owner to set it on
	}
	c := &checker{pass: pass, src: src, defs: collectDefs(pass, decl.Body)}
	// A helper that checks who controls the child before setting its
	// reference arbitrates the sharing: for the checks that ask, its
	// reference is a plain one.
	claims := claimChecks(pass, decl.Body)
	f := &ownerFact{}
	if owner, controller, ok := c.returnedOwner(decl, fn, params); ok {
		f.Returns, f.Owner, f.Controller = true, owner, controller && !claims
	}
	for _, s := range c.paramSettings(decl.Body, params) {
		s.Controller = s.Controller && !claims
		f.Sets = append(f.Sets, s)
	}
	if !f.Returns && len(f.Sets) == 0 {
		return nil
	}
	return f
}

// paramIndex numbers fn's receiver and parameters.
func paramIndex(fn *types.Func) map[*types.Var]int {
	sig := fn.Type().(*types.Signature)
	out := make(map[*types.Var]int)
	i := 0
	if r := sig.Recv(); r != nil {
		out[r] = 0
		i = 1
	}
	for j := range sig.Params().Len() {
		out[sig.Params().At(j)] = i + j
	}
	return out
}

// refResult is the index of fn's one result that holds owner references,
// -1 if it has none or several.
func refResult(sig *types.Signature) int {
	at := -1
	for i := range sig.Results().Len() {
		if isRefType(sig.Results().At(i).Type()) {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// isRefType reports whether t is an OwnerReference, a pointer to one, or
// a slice of either.
func isRefType(t types.Type) bool {
	if s, ok := t.Underlying().(*types.Slice); ok {
		t = s.Elem()
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return kube.Is(t, kube.MetaV1Pkg, "OwnerReference")
}

// returnedOwner finds the parameter the owner references fn returns name:
// every return must yield nil, a parameter handed back unchanged (the
// references it was given, as statefulset's addControllerRef returns refs
// that already hold the owner) or a reference to that same parameter, and
// one at least the reference.
func (c *checker) returnedOwner(decl *ast.FuncDecl, fn *types.Func, params map[*types.Var]int) (owner int, controller, ok bool) {
	sig := fn.Type().(*types.Signature)
	r := refResult(sig)
	if r < 0 {
		return 0, false, false
	}
	owner, controller = -1, true
	bad := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if bad {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != sig.Results().Len() {
				bad = true // named results, or a call's tuple: not traced
				return false
			}
			e := ast.Unparen(n.Results[r])
			if id, ok := e.(*ast.Ident); ok {
				v, _ := c.pass.TypesInfo.Uses[id].(*types.Var)
				if _, isParam := params[v]; isParam && v != nil || c.pass.TypesInfo.Types[id].IsNil() {
					return false
				}
			}
			o, ctl := c.refsOwner(e)
			i, isParam := c.ownerParam(o, params)
			if !isParam || owner >= 0 && i != owner {
				bad = true
				return false
			}
			owner, controller = i, controller && ctl
			return false
		}
		return true
	})
	if bad || owner < 0 {
		return 0, false, false
	}
	return owner, controller, true
}

// ownerParam is the index of the parameter an owner expression names (p,
// &p, p.DeepCopy(), or the root of p.Name in a literal), if it is one
// whose type is an object or an interface an object implements.
func (c *checker) ownerParam(owner ast.Expr, params map[*types.Var]int) (int, bool) {
	id := ownerIdent(owner)
	if id == nil {
		return 0, false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return 0, false
	}
	i, ok := params[v]
	if !ok {
		return 0, false
	}
	t := v.Type()
	if iface, isIface := t.Underlying().(*types.Interface); isIface {
		return i, !iface.Empty()
	}
	return i, kube.IsObjectType(t) || isObjectMeta(t)
}

// isObjectMeta reports whether t is metav1.ObjectMeta or a pointer to it:
// a helper handed the owner's metadata (asOwner(&m.ObjectMeta)).
func isObjectMeta(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return kube.Is(t, kube.MetaV1Pkg, "ObjectMeta")
}

// ownerArg is the owner a helper's argument names: x for &x.ObjectMeta
// and x.ObjectMeta, the argument itself otherwise.
func ownerArg(e ast.Expr) ast.Expr {
	x := ast.Unparen(e)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == "ObjectMeta" {
		return sel.X
	}
	return e
}

// refParam is the index of the parameter of owner-reference type that an
// expression sets as it is: r, *r, []metav1.OwnerReference{r},
// append(o.GetOwnerReferences(), r). A reference handed to any other call
// may be filtered out (cluster-api's RemoveOwnerRef), so is not followed.
func (c *checker) refParam(e ast.Expr, params map[*types.Var]int) (int, bool) {
	var refs []ast.Expr
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		refs = x.Elts
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); !ok || id.Name != "append" || len(x.Args) < 2 || x.Ellipsis.IsValid() {
			return 0, false
		}
		if _, isBuiltin := c.pass.TypesInfo.Uses[ast.Unparen(x.Fun).(*ast.Ident)].(*types.Builtin); !isBuiltin {
			return 0, false
		}
		refs = x.Args[1:]
	default:
		refs = []ast.Expr{x}
	}
	if len(refs) != 1 {
		return 0, false
	}
	r := ast.Unparen(refs[0])
	if star, ok := r.(*ast.StarExpr); ok {
		r = ast.Unparen(star.X)
	}
	id, ok := r.(*ast.Ident)
	if !ok {
		return 0, false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !isRefType(v.Type()) {
		return 0, false
	}
	i, ok := params[v]
	return i, ok
}

// paramSettings finds where fn sets owner references on one of its
// parameters naming another: child.SetOwnerReferences(refs),
// child.OwnerReferences = refs (prometheus-operator's WithManagingOwner
// shape). controller-runtime's setters on a parameter are the helper's
// own settings, checked in its body.
func (c *checker) paramSettings(body *ast.BlockStmt, params map[*types.Var]int) []setOn {
	var out []setOn
	add := func(child, refs ast.Expr) {
		ci, ok := c.childParam(child, params)
		if !ok {
			return
		}
		o, ctl := c.refsOwner(refs)
		fromRef := false
		oi, ok := c.ownerParam(o, params)
		if o == nil {
			oi, ok = c.refParam(refs, params)
			fromRef = true
		}
		if !ok || oi == ci {
			return
		}
		for i, s := range out {
			if s.Child == ci && s.Owner == oi && s.FromRef == fromRef {
				out[i].Controller = s.Controller && ctl
				return
			}
		}
		out = append(out, setOn{Child: ci, Owner: oi, Controller: ctl, FromRef: fromRef})
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "SetOwnerReferences" && len(n.Args) == 1 {
				add(sel.X, n.Args[0])
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				sel, ok := lhs.(*ast.SelectorExpr)
				if ok && sel.Sel.Name == "OwnerReferences" && i < len(n.Rhs) && len(n.Lhs) == len(n.Rhs) {
					add(sel.X, n.Rhs[i])
				}
			}
		}
		return true
	})
	return out
}

// childParam is the index of the parameter a child expression is: p,
// p.ObjectMeta, of an object type or an interface.
func (c *checker) childParam(e ast.Expr, params map[*types.Var]int) (int, bool) {
	e = ast.Unparen(e)
	if sel, ok := e.(*ast.SelectorExpr); ok && sel.Sel.Name == "ObjectMeta" {
		e = ast.Unparen(sel.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return 0, false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return 0, false
	}
	i, ok := params[v]
	if !ok {
		return 0, false
	}
	if _, isIface := v.Type().Underlying().(*types.Interface); isIface {
		return i, true
	}
	return i, kube.IsObjectType(v.Type())
}

// argOf is the expression a call hands to parameter i of fn, numbered as
// in ownerFact (the receiver first for a method); nil if none.
func argOf(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func, i int) ast.Expr {
	sig := fn.Type().(*types.Signature)
	args := call.Args
	if sig.Recv() != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if s, ok := pass.TypesInfo.Selections[sel]; !ok || s.Kind() != types.MethodExpr {
			if i == 0 {
				return sel.X
			}
			i--
		}
	}
	if i < 0 || i >= len(args) || sig.Variadic() && i >= sig.Params().Len()-1 {
		return nil
	}
	return args[i]
}

// helperSettings are the owner references a call of a summarised helper
// sets on its arguments.
func (c *checker) helperSettings(call *ast.CallExpr) []setting {
	if c.helper == nil {
		return nil
	}
	fn := typeutilCallee(c.pass, call)
	f := c.helper(fn)
	if f == nil {
		return nil
	}
	var out []setting
	for _, s := range f.Sets {
		childArg, arg := argOf(c.pass, call, fn, s.Child), argOf(c.pass, call, fn, s.Owner)
		if childArg == nil || arg == nil {
			continue
		}
		child := c.objs.of(childArg)
		if child == nil {
			child = &object{typ: c.pass.TypesInfo.TypeOf(childArg)}
		}
		owner, controller := ownerArg(arg), s.Controller
		if s.FromRef {
			if owner, controller = c.refsOwner(arg); owner == nil {
				continue // a reference this function does not build
			}
		}
		out = append(out, setting{at: call, owner: owner, child: child, controller: controller})
	}
	return out
}

// collectDefs finds the function's local variables of owner-reference
// types given a value once and never changed after (ownerRef :=
// metav1.NewControllerRef(eps, gvk), as kubernetes' endpointslicemirroring
// newEndpointSlice builds it), for refsOwner to follow.
func collectDefs(pass *analysis.Pass, body *ast.BlockStmt) map[*types.Var]ast.Expr {
	defs := make(map[*types.Var]ast.Expr)
	changed := make(map[*types.Var]bool)
	local := func(id *ast.Ident) *types.Var {
		v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var)
		if !ok || !isRefType(v.Type()) || v.Pos() < body.Pos() || v.Pos() >= body.End() {
			return nil
		}
		return v
	}
	define := func(id *ast.Ident, value ast.Expr) {
		v := local(id)
		if v == nil {
			return
		}
		if _, seen := defs[v]; seen || pass.TypesInfo.Defs[id] == nil || value == nil {
			changed[v] = true
			return
		}
		defs[v] = value
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, isIdent := ast.Unparen(lhs).(*ast.Ident)
				switch {
				case isIdent && n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs):
					if pass.TypesInfo.Defs[id] != nil {
						define(id, n.Rhs[i])
					} else if v := local(id); v != nil {
						changed[v] = true // redeclared in a :=, assigned again
					}
				default:
					// An assignment, a tuple, or a store into the
					// variable (ref.Controller = nil): not followed.
					if root := ssax.AssignedIdent(lhs); root != nil {
						if v := local(root); v != nil {
							changed[v] = true
						}
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if len(n.Values) == len(n.Names) {
					define(id, n.Values[i])
				} else if v := local(id); v != nil {
					changed[v] = true
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					if v := local(id); v != nil {
						changed[v] = true
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
					if v := local(id); v != nil {
						changed[v] = true // its address escapes
					}
				}
			}
		}
		return true
	})
	for v := range changed {
		delete(defs, v)
	}
	return defs
}
