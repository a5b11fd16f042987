package tombstone

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/internal/lend"
)

// mode says what a tracked value may hold that its user must expect.
type mode int

const (
	// mayBeTombstone: an untyped delete-handler object, which may be a
	// cache.DeletedFinalStateUnknown instead of the object.
	mayBeTombstone mode = iota
	// mayBeNil: the object a typed FilterFunc receives, which is the zero
	// value of T for deletions seen without any copy of the object.
	mayBeNil
)

// A root is a function that receives a deleted object in one of its
// parameters, found where it is registered as a handler.
type root struct {
	fn    *ssa.Function
	param int // index into fn.Params (receivers count)
	mode  mode
	role  string // "DeleteFunc", "FilterFunc" or "OnDelete"
	// shared names the other role when the same function is also
	// registered as an add or update handler.
	shared string
	// dropHarmless is set for a FilterFunc whose filtering handler wraps a
	// handler without a DeleteFunc: filtering a tombstone out loses nothing
	// there, so only panics are reported.
	dropHarmless bool
	name         string // how the registration spells the function
	// from, for a method implementing an interface method that a watcher
	// package calls with deleted objects, names that method and package.
	from string
	// kind is the API object type the informer the handler is registered
	// on delivers (v1.Service, not a pointer), when its type says
	// (`factory.Core().V1().Services().Informer().AddEventHandler(...)`);
	// nil for an untyped or unknown informer.
	kind types.Type
	// informer, when kind is nil, is the field holding the untyped
	// informer the handler is registered on (`c.informer.AddEventHandler`).
	informer *types.Var
}

// findRoots collects the package's delete handlers: functions stored in the
// DeleteFunc or FilterFunc of client-go's handler structs (composite
// literals and later field stores), and the OnDelete methods of the
// package's own types that implement cache.ResourceEventHandler.
func findRoots(pass *analysis.Pass, ins *inspector.Inspector, prog *ssa.Program, funcs map[ast.Node]*ssa.Function, cachePkg *types.Package) []root {
	res := resolver{pass: pass, prog: prog, funcs: funcs, assigned: localFuncAssignments(pass, ins)}

	type use struct {
		fn       *ssa.Function
		role     string
		expr     ast.Expr
		h        kube.HandlerStruct
		harmless bool
		reg      registration
	}
	var uses []use
	record := func(h kube.HandlerStruct, field string, value ast.Expr, harmless bool, reg registration) {
		if _, ok := kube.HandlerFieldEvent(field); !ok {
			return // Handler of a filtering handler, or unknown
		}
		fn := res.resolve(value)
		if fn == nil {
			return // a func from a call, a field, another package: not followed
		}
		uses = append(uses, use{fn: fn, role: field, expr: value, h: h, harmless: harmless, reg: reg})
	}

	for cur := range ins.Root().Preorder((*ast.CompositeLit)(nil), (*ast.AssignStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CompositeLit:
			h, ok := kube.HandlerStructOf(pass.TypesInfo.TypeOf(n))
			if !ok {
				continue // not a client-go handler struct
			}
			if lookalikeRegistration(pass, cur) {
				continue // delivered by something else, which may never send tombstones
			}
			fields := literalFields(pass, n)
			harmless := h.Filtering && wrapsNoDeleteFunc(pass, fields["Handler"])
			reg := registeredOn(pass, cur)
			for _, field := range slices.Sorted(maps.Keys(fields)) {
				record(h, field, fields[field], harmless, reg)
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				sel, ok := lhs.(*ast.SelectorExpr)
				if !ok || len(n.Rhs) != len(n.Lhs) {
					continue
				}
				h, ok := kube.HandlerStructOf(pass.TypesInfo.TypeOf(sel.X))
				if !ok {
					continue // not a field of a handler struct
				}
				record(h, sel.Sel.Name, n.Rhs[i], false, registration{})
			}
		}
	}

	live := make(map[*ssa.Function]string)
	for _, u := range uses {
		if e, _ := kube.HandlerFieldEvent(u.role); !e.SeesDeletions() {
			live[u.fn] = u.role
		}
	}
	var roots []root
	for _, u := range uses {
		if e, _ := kube.HandlerFieldEvent(u.role); !e.SeesDeletions() {
			continue
		}
		m := mayBeTombstone
		if u.h.Typed {
			if u.role == "DeleteFunc" {
				continue // DeletedObject[T] is checked wherever it is used
			}
			m = mayBeNil
		}
		roots = append(roots, root{
			fn: u.fn, param: firstParam(u.fn), mode: m, role: u.role,
			shared: live[u.fn], name: exprName(u.expr),
			dropHarmless: u.harmless && u.role == "FilterFunc",
			kind:         u.reg.kind,
			informer:     u.reg.informer,
		})
	}

	// Handler types of the package: their OnDelete sees tombstones.
	scope := pass.Pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !kube.IsUntypedHandler(t, cachePkg) {
				continue
			}
			obj, _, _ := types.LookupFieldOrMethod(t, true, pass.Pkg, "OnDelete")
			m, ok := obj.(*types.Func)
			if !ok || m.Pkg() != pass.Pkg {
				continue // promoted from an embedded library type
			}
			fn := prog.FuncValue(m)
			if fn == nil || fn.Blocks == nil {
				continue
			}
			roots = append(roots, root{fn: fn, param: 1, mode: mayBeTombstone, role: "OnDelete", name: tn.Name() + ".OnDelete"})
			break
		}
	}
	return roots
}

// lookalikeRegistration reports whether the handler literal at cur is passed
// straight to an AddEventHandler-like method that is not an informer of
// client-go or controller-runtime (kubernetes' resourceslice tracker, for
// one): its delivery rules are its own, and tombstones may never come.
func lookalikeRegistration(pass *analysis.Pass, cur inspector.Cursor) bool {
	_, fn := registrationCall(pass, cur)
	if fn == nil || !strings.HasPrefix(fn.Name(), "Add") || !strings.Contains(fn.Name(), "EventHandler") {
		return false
	}
	return !kube.IsHandlerRegistration(fn)
}

// registrationCall returns the method call the handler literal at cur is
// passed to straight (`x.AddEventHandler(handler)`, `&handler` too): its
// selector and the method, nil when it is not.
func registrationCall(pass *analysis.Pass, cur inspector.Cursor) (*ast.SelectorExpr, *types.Func) {
	parent := cur.Parent()
	if u, ok := parent.Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
		parent = parent.Parent()
	}
	call, ok := parent.Node().(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	fn, _ := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if fn == nil {
		return nil, nil
	}
	return sel, fn
}

// A registration says what a handler literal is registered on: the
// object type the informer delivers when its type says, or else the field
// that holds the (untyped) informer.
type registration struct {
	kind     types.Type
	informer *types.Var
}

// registeredOn is what the handler literal at cur is passed straight to:
// `inf.AddEventHandler(...)` on a typed informer, or on the untyped
// Informer() of a generated one (`c.servicesInformer.Informer().
// AddEventHandler(...)`), gives the kind; an untyped informer in a field
// (`c.dynInformer.AddEventHandler(...)`) gives the field.
func registeredOn(pass *analysis.Pass, cur inspector.Cursor) registration {
	sel, fn := registrationCall(pass, cur)
	if fn == nil || !kube.IsHandlerRegistration(fn) {
		return registration{}
	}
	if kind := kube.ObjectOf(pass.TypesInfo.TypeOf(sel.X)); kind != nil {
		return registration{kind: kind}
	}
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.CallExpr:
		if isel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && isel.Sel.Name == "Informer" && len(x.Args) == 0 {
			return registration{kind: kube.ObjectOf(pass.TypesInfo.TypeOf(isel.X))}
		}
	case *ast.SelectorExpr:
		if s, ok := pass.TypesInfo.Selections[x]; ok && s.Kind() == types.FieldVal {
			field, _ := s.Obj().(*types.Var)
			return registration{informer: field}
		}
	}
	return registration{}
}

// exprName is how a message names the function a registration holds.
func exprName(e ast.Expr) string {
	if _, ok := ast.Unparen(e).(*ast.FuncLit); ok {
		return "func literal"
	}
	return types.ExprString(e)
}

// literalFields maps the field names of a struct literal to their values,
// keyed or not.
func literalFields(pass *analysis.Pass, lit *ast.CompositeLit) map[string]ast.Expr {
	m := make(map[string]ast.Expr)
	st, _ := pass.TypesInfo.TypeOf(lit).Underlying().(*types.Struct)
	for i, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if key, ok := kv.Key.(*ast.Ident); ok {
				m[key.Name] = kv.Value
			}
		} else if st != nil && i < st.NumFields() {
			m[st.Field(i).Name()] = elt // unkeyed literal
		}
	}
	return m
}

// wrapsNoDeleteFunc reports whether e is a handler-struct literal (or its
// address) that sets no DeleteFunc.
func wrapsNoDeleteFunc(pass *analysis.Pass, e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false // a variable or call: it may handle deletions
	}
	h, ok := kube.HandlerStructOf(pass.TypesInfo.TypeOf(lit))
	if !ok || h.Filtering {
		return false
	}
	_, hasDelete := literalFields(pass, lit)["DeleteFunc"]
	return !hasDelete
}

// firstParam is the index of the first non-receiver parameter.
func firstParam(fn *ssa.Function) int {
	if fn.Signature.Recv() != nil {
		return 1
	}
	return 0
}

// resolver maps a function-valued expression to the SSA function it denotes.
type resolver struct {
	pass     *analysis.Pass
	prog     *ssa.Program
	funcs    map[ast.Node]*ssa.Function
	assigned map[*types.Var][]ast.Expr
}

func (r *resolver) resolve(e ast.Expr) *ssa.Function {
	return r.resolveDepth(e, 0)
}

// maxFuncVarChain bounds the local func variables a registration is
// followed through to its function (`del := func(obj any) {...};
// DeleteFunc: del`): handlers are registered as a literal, a method or one
// variable holding either, and a longer chain of variables that only hand
// the func on is not code a controller contains.
const maxFuncVarChain = 4

func (r *resolver) resolveDepth(e ast.Expr, depth int) *ssa.Function {
	if depth > maxFuncVarChain {
		lend.LimitHit(r.pass, e.Pos(), "maxFuncVarChain: a handler held through more than 4 func variables is not followed, so a delete handler there is not checked")
		return nil
	}
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.FuncLit:
		return r.funcs[e]
	case *ast.Ident, *ast.SelectorExpr:
		var obj types.Object
		if id, ok := e.(*ast.Ident); ok {
			obj = r.pass.TypesInfo.Uses[id]
		} else {
			sel := e.(*ast.SelectorExpr)
			if s, ok := r.pass.TypesInfo.Selections[sel]; ok {
				obj = s.Obj()
			} else {
				obj = r.pass.TypesInfo.Uses[sel.Sel]
			}
		}
		switch obj := obj.(type) {
		case *types.Func:
			if obj.Pkg() != r.pass.Pkg {
				return nil // library function: not ours to check
			}
			fn := r.prog.FuncValue(obj)
			if fn == nil || fn.Blocks == nil {
				return nil // interface method or no body
			}
			return fn
		case *types.Var:
			vals := r.assigned[obj]
			if len(vals) != 1 {
				return nil // reassigned: which function it holds is unknown
			}
			return r.resolveDepth(vals[0], depth+1)
		}
	}
	return nil
}

// localFuncAssignments records the values assigned to local variables of
// function type, so that `del := func(obj any) {...}; ...DeleteFunc: del`
// resolves to the literal.
func localFuncAssignments(pass *analysis.Pass, ins *inspector.Inspector) map[*types.Var][]ast.Expr {
	m := make(map[*types.Var][]ast.Expr)
	add := func(id *ast.Ident, value ast.Expr) {
		obj := pass.TypesInfo.ObjectOf(id)
		v, ok := obj.(*types.Var)
		if !ok || v.IsField() || v.Parent() == pass.Pkg.Scope() {
			return // only locals: package variables may be set anywhere
		}
		if _, ok := v.Type().Underlying().(*types.Signature); !ok {
			return
		}
		m[v] = append(m[v], value)
	}
	for cur := range ins.Root().Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					continue
				}
				var value ast.Expr
				if len(n.Rhs) == len(n.Lhs) {
					value = n.Rhs[i]
				}
				if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
					value = nil
				}
				add(id, value)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				var value ast.Expr
				if len(n.Values) == len(n.Names) {
					value = n.Values[i]
				}
				add(id, value)
			}
		}
	}
	return m
}
