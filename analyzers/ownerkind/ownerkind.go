package ownerkind

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "ownerkind"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "OwnerReferenceKindMismatch",
	DocSource: DocSource,
	Run:       run,
})

// Analyzer reports owner references whose kind or group is not their
// owner's.
var Analyzer = Definition.Analyzer

// applyOwnerRefPkg holds client-go's apply configuration of an owner
// reference (metav1ac.OwnerReference().WithKind(...)).
const applyOwnerRefPkg = kube.ApplyConfigurationsPfx + "meta/v1"

// A construction is one place where an owner reference is built from an
// owner and a kind: metav1.NewControllerRef(owner, gvk), an
// OwnerReference literal, or an apply configuration's chain of With calls.
type construction struct {
	node       ast.Node // where to report
	owner      ast.Expr
	gvk        ast.Expr // NewControllerRef's
	apiVersion ast.Expr // a literal's or a chain's, when gvk is nil
	kind       ast.Expr
	defs       *localDefs // the enclosing function's locals
}

type checker struct {
	pass       *analysis.Pass
	src        *sources
	identities map[*types.TypeName]identity
	vars       map[*types.Var]ast.Expr // pkgVars, once computed
	varsDone   bool
}

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.MetaV1Pkg) == nil || summary.Library(pass) {
		return nil, nil // no owner references in sight, or the libraries themselves
	}
	c := &checker{pass: pass, src: newSources(pass), identities: map[*types.TypeName]identity{}}
	type fn struct {
		decl *ast.FuncDecl
		defs *localDefs
	}
	var fns []fn
	helpers := map[*types.Func][]*construction{}
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue // tests build owner references of any kind as data (adoption and orphaning cases)
		}
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok || d.Body == nil {
				continue
			}
			defs, cons := c.checkDecl(d)
			fns = append(fns, fn{d, defs})
			if obj, ok := pass.TypesInfo.Defs[d.Name].(*types.Func); ok && len(cons) > 0 {
				helpers[obj] = cons
			}
		}
	}
	if len(helpers) == 0 {
		return nil, nil
	}
	for _, f := range fns {
		c.checkCalls(f.decl, f.defs, helpers)
	}
	return nil, nil
}

// checkDecl checks the owner references a function builds, and returns
// its locals and those references (for its callers, when it is a helper).
func (c *checker) checkDecl(d *ast.FuncDecl) (*localDefs, []*construction) {
	defer crash.At(c.pass.Fset, d.Pos())
	defs := collectLocalDefs(c.pass.TypesInfo, d.Body)
	cons := c.constructions(d.Body, defs)
	for _, con := range cons {
		c.check(con)
	}
	return defs, cons
}

// constructions finds the owner references a function body builds.
func (c *checker) constructions(body *ast.BlockStmt, defs *localDefs) []*construction {
	info := c.pass.TypesInfo
	var out []*construction
	inner := map[*ast.CallExpr]bool{}
	var chains []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := callee(info, n)
			switch {
			case kube.IsFunc(fn, kube.MetaV1Pkg, "NewControllerRef") && len(n.Args) == 2:
				out = append(out, &construction{node: n, owner: n.Args[0], gvk: n.Args[1], defs: defs})
			case isApplyWith(fn):
				chains = append(chains, n)
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
					if recv, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok {
						inner[recv] = true
					}
				}
			}
		case *ast.CompositeLit:
			if kube.Is(info.TypeOf(n), kube.MetaV1Pkg, "OwnerReference") && !kube.IsPointer(info.TypeOf(n)) {
				if con := c.literal(n, defs); con != nil {
					out = append(out, con)
				}
			}
		}
		return true
	})
	for _, call := range chains {
		if inner[call] {
			continue // part of a longer chain
		}
		if con := c.chain(call, defs); con != nil {
			out = append(out, con)
		}
	}
	return out
}

// literal reads metav1.OwnerReference{APIVersion, Kind, Name, UID}: the
// owner is the object whose UID it takes (owner.UID, owner.GetUID()), and
// whose name, if it names one.
func (c *checker) literal(lit *ast.CompositeLit, defs *localDefs) *construction {
	con := &construction{node: lit, defs: defs}
	var nameOf ast.Expr
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return nil
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			return nil
		}
		switch key.Name {
		case "APIVersion":
			con.apiVersion = kv.Value
		case "Kind":
			con.kind = kv.Value
		case "UID":
			con.owner = metaOf(kv.Value, "UID")
		case "Name":
			nameOf = metaOf(kv.Value, "Name")
		}
	}
	if con.owner == nil || nameOf != nil && types.ExprString(nameOf) != types.ExprString(con.owner) {
		return nil // no owner, or the UID of one object and the name of another
	}
	return con
}

// chain reads an apply configuration's
// OwnerReference().WithAPIVersion(...).WithKind(...).WithUID(...) from its
// outermost call: the last call of a method wins.
func (c *checker) chain(outer *ast.CallExpr, defs *localDefs) *construction {
	con := &construction{node: outer, defs: defs}
	seen := map[string]bool{}
	var nameOf ast.Expr
	for call := outer; call != nil; {
		fn := callee(c.pass.TypesInfo, call)
		if !isApplyWith(fn) {
			break
		}
		sel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !seen[fn.Name()] && len(call.Args) == 1 {
			seen[fn.Name()] = true
			switch fn.Name() {
			case "WithAPIVersion":
				con.apiVersion = call.Args[0]
			case "WithKind":
				con.kind = call.Args[0]
			case "WithUID":
				con.owner = metaOf(call.Args[0], "UID")
			case "WithName":
				nameOf = metaOf(call.Args[0], "Name")
			}
		}
		call, _ = ast.Unparen(sel.X).(*ast.CallExpr)
	}
	if con.owner == nil || nameOf != nil && types.ExprString(nameOf) != types.ExprString(con.owner) {
		return nil
	}
	return con
}

// isApplyWith recognises the With methods of client-go's
// OwnerReferenceApplyConfiguration.
func isApplyWith(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != applyOwnerRefPkg || !strings.HasPrefix(fn.Name(), "With") {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() != nil && kube.Is(sig.Recv().Type(), applyOwnerRefPkg, "OwnerReferenceApplyConfiguration")
}

// metaOf returns x for x.FIELD, x.ObjectMeta.FIELD and x.GetFIELD().
func metaOf(e ast.Expr, field string) ast.Expr {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if e.Sel.Name != field {
			return nil
		}
		if inner, ok := ast.Unparen(e.X).(*ast.SelectorExpr); ok && inner.Sel.Name == "ObjectMeta" {
			return inner.X
		}
		return e.X
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Get"+field || len(e.Args) != 0 {
			return nil
		}
		return sel.X
	}
	return nil
}

// A verdict is what a construction names against what its owner is.
type verdict struct {
	group, kind part // named
	owner       identity
	ownerType   types.Type
}

// judge evaluates a construction, with the helper's parameters bound when
// env is not nil, and says whether it names another group or kind than
// its owner's.
func (c *checker) judge(con *construction, env map[*types.Var]binding) (verdict, bool) {
	info := c.pass.TypesInfo
	fc := fileCtx{pkg: c.pass.Pkg, info: info, defs: con.defs, env: env}
	ev := &evaluator{a: c}
	var v verdict
	if con.gvk != nil {
		gvk := ev.eval(con.gvk, fc)
		if gvk.kind != vGVK {
			return v, false
		}
		v.group, v.kind = gvk.group, gvk.kindName
	} else {
		if con.apiVersion != nil {
			if av := ev.eval(con.apiVersion, fc); av.kind == vString {
				v.group, _ = parseAPIVersion(av.str)
			}
		}
		if con.kind != nil {
			if k := ev.eval(con.kind, fc); k.kind == vString {
				v.kind = k.str
			}
		}
	}
	v.ownerType = info.TypeOf(con.owner)
	if v.ownerType == nil || types.IsInterface(v.ownerType) {
		// An interface parameter of a helper: the argument's type.
		id, ok := ast.Unparen(con.owner).(*ast.Ident)
		if !ok {
			return v, false
		}
		p, _ := info.Uses[id].(*types.Var)
		b, bound := env[p]
		if !bound || con.defs.assigned(p) {
			return v, false
		}
		v.ownerType = b.typ
	}
	owner, ok := c.identityOf(v.ownerType)
	if !ok {
		return v, false
	}
	v.owner = owner
	wrongKind := v.kind.ok && v.kind.s != owner.kind
	wrongGroup := v.group.ok && owner.group.ok && !sameGroup(v.group.s, owner.group.s)
	return v, wrongKind || wrongGroup
}

const consequence = "the garbage collector looks the owner up by that kind, does not find it and deletes the child (or, for a kind the cluster does not serve, never collects it)"

// check reports a construction that names another kind than its owner's,
// with a fix when the kind is a literal written there.
func (c *checker) check(con *construction) {
	v, wrong := c.judge(con, nil)
	if !wrong {
		return
	}
	// At what is wrong: the kind, else the apiVersion, else the call.
	at := con.node.Pos()
	switch {
	case v.kind.ok && v.kind.s != v.owner.kind && con.kind != nil:
		at = con.kind.Pos()
	case con.gvk == nil && con.apiVersion != nil:
		at = con.apiVersion.Pos()
	}
	d := analysis.Diagnostic{
		Pos: at,
		Message: fmt.Sprintf("owner reference names %s but its owner %s is a %s (%s): %s; name the owner's group and kind",
			named(v), types.ExprString(con.owner), c.typeString(v.ownerType), gk(known(v.owner.kind), v.owner.group), consequence),
	}
	groupRight := v.group.ok && v.owner.group.ok && sameGroup(v.group.s, v.owner.group.s)
	if lit := v.kind.lit; lit != nil && groupRight && lit.Pos() >= con.node.Pos() && lit.End() <= con.node.End() {
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Name kind %s", v.owner.kind),
			TextEdits: []analysis.TextEdit{{Pos: lit.Pos(), End: lit.End(), NewText: []byte(strconv.Quote(v.owner.kind))}},
		}}
	}
	c.pass.Report(d)
}

// checkCalls reports calls of the package's helpers that build an owner
// reference from their parameters (an owner of interface type, a
// GroupVersionKind or kind string) when the arguments name another kind
// than the owner's, and the helper alone does not (check reports that).
func (c *checker) checkCalls(decl *ast.FuncDecl, defs *localDefs, helpers map[*types.Func][]*construction) {
	defer crash.At(c.pass.Fset, decl.Pos())
	info := c.pass.TypesInfo
	ev := &evaluator{a: c}
	fc := fileCtx{pkg: c.pass.Pkg, info: info, defs: defs}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := callee(info, call)
		if fn == nil {
			return true
		}
		cons := helpers[fn.Origin()]
		if len(cons) == 0 {
			return true
		}
		sig := fn.Origin().Type().(*types.Signature)
		env := map[*types.Var]binding{}
		for i := range sig.Params().Len() {
			if i >= len(call.Args) || sig.Variadic() && i == sig.Params().Len()-1 {
				break
			}
			env[sig.Params().At(i)] = binding{val: ev.eval(call.Args[i], fc), typ: info.TypeOf(call.Args[i])}
		}
		for _, con := range cons {
			if _, alone := c.judge(con, nil); alone {
				continue
			}
			v, wrong := c.judge(con, env)
			if !wrong {
				continue
			}
			c.pass.Report(analysis.Diagnostic{
				Pos: call.Pos(),
				Message: fmt.Sprintf("%s builds an owner reference naming %s for its owner %s, a %s (%s): %s; pass the owner's group and kind",
					fn.Name(), named(v), ownerArg(con, sig, call), c.typeString(v.ownerType), gk(known(v.owner.kind), v.owner.group), consequence),
			})
			break
		}
		return true
	})
}

// ownerArg is the argument a helper's owner parameter was given, or the
// helper's own expression for it.
func ownerArg(con *construction, sig *types.Signature, call *ast.CallExpr) string {
	if id, ok := ast.Unparen(con.owner).(*ast.Ident); ok {
		for i := range sig.Params().Len() {
			if sig.Params().At(i).Name() == id.Name && i < len(call.Args) {
				return types.ExprString(call.Args[i])
			}
		}
	}
	return types.ExprString(con.owner)
}

// gk prints a kind and group as kubectl does (Deployment.apps, Pod).
func gk(kind, group part) string {
	k := kind.s
	if !kind.ok {
		k = "a kind"
	}
	if group.ok && group.s != "" {
		return k + "." + group.s
	}
	return k
}

// named prints what a reference names, saying so when it is the core
// group and the owner's is another.
func named(v verdict) string {
	s := gk(v.kind, v.group)
	if v.group.ok && v.group.s == "" && v.owner.group.ok && v.owner.group.s != "" {
		s += " of the core group"
	}
	return s
}

func (c *checker) typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// pkgVars are the analysed package's variables given a value by their
// declaration only (kubernetes' var controllerKind =
// apps.SchemeGroupVersion.WithKind("StatefulSet")), and that value.
func (c *checker) pkgVars() map[*types.Var]ast.Expr {
	if c.varsDone {
		return c.vars
	}
	c.varsDone = true
	c.vars = map[*types.Var]ast.Expr{}
	info := c.pass.TypesInfo
	scope := c.pass.Pkg.Scope()
	for _, f := range c.pass.Files {
		for id, value := range declared(f, token.VAR) {
			if v, ok := info.Defs[id].(*types.Var); ok && v.Parent() == scope {
				c.vars[v] = value
			}
		}
	}
	// Drop those the package assigns, in part or whole, or whose address
	// it takes.
	drop := func(e ast.Expr) {
		if root := ssax.AssignedIdent(e); root != nil {
			if v, ok := info.Uses[root].(*types.Var); ok {
				delete(c.vars, v)
			}
		}
	}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					drop(lhs)
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					drop(n.X)
				}
			case *ast.IncDecStmt:
				drop(n.X)
			}
			return true
		})
	}
	return c.vars
}

// callee is the function or method a call statically names.
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[fun].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if s, ok := info.Selections[fun]; ok {
			if s.Kind() != types.MethodVal {
				return nil // a method value of an interface field, a func field
			}
			fn, _ := s.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[fun.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr:
		return callee(info, &ast.CallExpr{Fun: fun.X})
	}
	return nil
}
