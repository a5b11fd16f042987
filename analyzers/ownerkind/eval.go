package ownerkind

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path"
	"strconv"
	"strings"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// A part is one string of a group, version or kind, known only when every
// step that made it is a constant.
type part struct {
	s   string
	ok  bool
	lit *ast.BasicLit // the literal it was written as, in the analysed package
}

func known(s string) part { return part{s: s, ok: true} }

type valueKind int

const (
	vUnknown valueKind = iota
	vString
	vGV  // schema.GroupVersion
	vGVK // schema.GroupVersionKind
)

// A value is what an expression holds when it is built from constants: a
// string, a group-version or a group-version-kind, part by part.
type value struct {
	kind                     valueKind
	str                      part // vString
	group, version, kindName part
}

func gvOf(group, version part) value { return value{kind: vGV, group: group, version: version} }

// withKind is gv.WithKind(kind).
func (v value) withKind(kind part) value {
	if v.kind != vGV {
		return value{}
	}
	return value{kind: vGVK, group: v.group, version: v.version, kindName: kind}
}

// parseAPIVersion splits an apiVersion ("apps/v1", "v1") as
// schema.ParseGroupVersion does.
func parseAPIVersion(p part) (group, version part) {
	if !p.ok {
		return part{}, part{}
	}
	g, v, found := strings.Cut(p.s, "/")
	if !found {
		return known(""), known(p.s)
	}
	if strings.Contains(v, "/") {
		return part{}, part{}
	}
	return known(g), known(v)
}

// A binding is what a helper's parameter holds at one call site.
type binding struct {
	val value
	typ types.Type // the argument's static type
}

// A fileCtx says how to resolve names in an expression: through the
// analysed package's type information, or, for a dependency's source file
// (parsed, not type-checked), through its package scope and imports.
type fileCtx struct {
	pkg     *types.Package
	info    *types.Info       // nil for a dependency's file
	imports map[string]string // local name → import path, when info is nil
	file    string            // the dependency's file, when info is nil
	defs    *localDefs        // the enclosing function's locals, or nil
	env     map[*types.Var]binding
}

// evaluator folds constant group/version/kind expressions.
type evaluator struct {
	a     *checker
	depth int
}

const maxDepth = 16 // variables defined by variables; deeper is unknown

func (ev *evaluator) eval(e ast.Expr, fc fileCtx) value {
	if ev.depth > maxDepth {
		return value{}
	}
	ev.depth++
	defer func() { ev.depth-- }()
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return value{}
		}
		s, err := strconv.Unquote(e.Value)
		if err != nil {
			return value{}
		}
		p := known(s)
		if fc.info != nil && fc.pkg == ev.a.pass.Pkg {
			p.lit = e
		}
		return value{kind: vString, str: p}
	case *ast.Ident:
		return ev.object(ev.resolve(e, fc), fc)
	case *ast.SelectorExpr:
		if obj := ev.qualified(e, fc); obj != nil {
			return ev.object(obj, fc)
		}
		if s, ok := ev.sourceConst(e, fc); ok {
			return value{kind: vString, str: known(s)}
		}
		x := ev.eval(e.X, fc)
		switch {
		case x.kind == vGVK && e.Sel.Name == "Kind":
			return value{kind: vString, str: x.kindName}
		case (x.kind == vGVK || x.kind == vGV) && e.Sel.Name == "Group":
			return value{kind: vString, str: x.group}
		case (x.kind == vGVK || x.kind == vGV) && e.Sel.Name == "Version":
			return value{kind: vString, str: x.version}
		}
		return value{}
	case *ast.CompositeLit:
		return ev.composite(e, fc)
	case *ast.CallExpr:
		return ev.call(e, fc)
	}
	return value{}
}

// composite folds schema.GroupVersion{...} and schema.GroupVersionKind{...};
// a field left out is the empty string.
func (ev *evaluator) composite(lit *ast.CompositeLit, fc fileCtx) value {
	var fields []string
	switch {
	case ev.isSchemaType(lit.Type, fc, "GroupVersionKind"):
		fields = []string{"Group", "Version", "Kind"}
	case ev.isSchemaType(lit.Type, fc, "GroupVersion"):
		fields = []string{"Group", "Version"}
	default:
		return value{}
	}
	parts := map[string]part{}
	for _, f := range fields {
		parts[f] = known("")
	}
	for i, elt := range lit.Elts {
		name := ""
		val := elt
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			id, _ := kv.Key.(*ast.Ident)
			if id == nil {
				return value{}
			}
			name, val = id.Name, kv.Value
		} else if i < len(fields) {
			name = fields[i]
		}
		v := ev.eval(val, fc)
		if v.kind != vString {
			parts[name] = part{}
			continue
		}
		parts[name] = v.str
	}
	out := gvOf(parts["Group"], parts["Version"])
	if len(fields) == 3 {
		out = out.withKind(parts["Kind"])
	}
	return out
}

// call folds gv.WithKind(k), gvk.GroupVersion(), gv.String() and
// schema.FromAPIVersionAndKind(apiVersion, kind).
func (ev *evaluator) call(call *ast.CallExpr, fc fileCtx) value {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return value{}
	}
	if obj := ev.qualified(sel, fc); obj != nil {
		if fn, ok := obj.(*types.Func); ok && kube.IsFunc(fn, kube.SchemaPkg, "FromAPIVersionAndKind") && len(call.Args) == 2 {
			av, k := ev.eval(call.Args[0], fc), ev.eval(call.Args[1], fc)
			if av.kind != vString || k.kind != vString {
				return value{}
			}
			g, v := parseAPIVersion(av.str)
			return gvOf(g, v).withKind(k.str)
		}
		return value{}
	}
	x := ev.eval(sel.X, fc)
	switch {
	case x.kind == vGV && sel.Sel.Name == "WithKind" && len(call.Args) == 1:
		k := ev.eval(call.Args[0], fc)
		if k.kind != vString {
			return x.withKind(part{})
		}
		return x.withKind(k.str)
	case x.kind == vGVK && sel.Sel.Name == "GroupVersion" && len(call.Args) == 0:
		return gvOf(x.group, x.version)
	case x.kind == vGV && sel.Sel.Name == "String" && len(call.Args) == 0:
		if !x.group.ok || !x.version.ok {
			return value{kind: vString}
		}
		if x.group.s == "" {
			return value{kind: vString, str: known(x.version.s)}
		}
		return value{kind: vString, str: known(x.group.s + "/" + x.version.s)}
	}
	return value{}
}

// isSchemaType reports whether a composite literal's type is
// apimachinery's schema.NAME.
func (ev *evaluator) isSchemaType(t ast.Expr, fc fileCtx, name string) bool {
	if t == nil {
		return false
	}
	if fc.info != nil {
		return kube.Is(fc.info.TypeOf(t), kube.SchemaPkg, name)
	}
	sel, ok := t.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && fc.imports[x.Name] == kube.SchemaPkg
}

// resolve finds the object an identifier names.
func (ev *evaluator) resolve(id *ast.Ident, fc fileCtx) types.Object {
	if fc.info != nil {
		return fc.info.Uses[id]
	}
	// A dependency's package-level initializer names only package-level
	// objects (or predeclared ones, which fold to nothing here).
	return fc.pkg.Scope().Lookup(id.Name)
}

// qualified finds the object pkg.Name names, or nil when the selector is
// not qualified by a package.
func (ev *evaluator) qualified(sel *ast.SelectorExpr, fc fileCtx) types.Object {
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	if fc.info != nil {
		if _, ok := fc.info.Uses[x].(*types.PkgName); !ok {
			return nil
		}
		return fc.info.Uses[sel.Sel]
	}
	p, ok := fc.imports[x.Name]
	if !ok {
		return nil
	}
	for _, imp := range fc.pkg.Imports() {
		if imp.Path() == p && ev.a.visible(imp) {
			return imp.Scope().Lookup(sel.Sel.Name)
		}
	}
	return nil
}

// sourceConst folds pkg.Name in a dependency's file when the package is one
// export data does not hold whole: its constant, read from its source.
func (ev *evaluator) sourceConst(sel *ast.SelectorExpr, fc fileCtx) (string, bool) {
	x, ok := sel.X.(*ast.Ident)
	if !ok || fc.info != nil || fc.file == "" {
		return "", false
	}
	p, ok := fc.imports[x.Name]
	if !ok {
		return "", false
	}
	return ev.a.src.sourceConst(fc.file, fc.pkg.Path(), p, sel.Sel.Name)
}

// object folds what a named constant or variable holds.
func (ev *evaluator) object(obj types.Object, fc fileCtx) value {
	switch obj := obj.(type) {
	case *types.Const:
		if obj.Val().Kind() != constant.String {
			return value{}
		}
		return value{kind: vString, str: known(constant.StringVal(obj.Val()))}
	case *types.Var:
		if b, ok := fc.env[obj]; ok {
			if fc.defs != nil && fc.defs.assigned(obj) {
				return value{}
			}
			return b.val
		}
		if obj.Pkg() == nil || obj.IsField() {
			return value{} // a struct field: set anywhere (kubernetes' rsc.GroupVersionKind)
		}
		if obj.Parent() != obj.Pkg().Scope() {
			if fc.defs == nil {
				return value{}
			}
			def := fc.defs.def(obj)
			if def == nil {
				return value{} // a parameter, or a variable given values more than once
			}
			return ev.eval(def, fc)
		}
		return ev.pkgVar(obj)
	}
	return value{}
}

// pkgVar folds a package-level variable from its initializer: in the
// analysed package when nothing else assigns it; k8s.io/api's
// SchemeGroupVersion from its package path; another package's variable
// (an API package's ReportQueryGVK) from the source file declaring it.
func (ev *evaluator) pkgVar(v *types.Var) value {
	pkg := v.Pkg()
	if !ev.a.visible(pkg) {
		return value{}
	}
	if v.Name() == "SchemeGroupVersion" && kube.BuiltinGroup(pkg.Path()) != "" {
		return builtinGV(pkg)
	}
	if pkg == ev.a.pass.Pkg {
		init, ok := ev.a.pkgVars()[v]
		if !ok {
			return value{}
		}
		return ev.eval(init, fileCtx{pkg: pkg, info: ev.a.pass.TypesInfo})
	}
	init, imports, file := ev.a.src.varInit(v)
	if init == nil {
		return value{}
	}
	return ev.eval(init, fileCtx{pkg: pkg, imports: imports, file: file})
}

// builtinGV is the group and version of a package of k8s.io/api (or the
// extension API servers'): its GroupName constant and the last element of
// its path.
func builtinGV(pkg *types.Package) value {
	group := part{}
	if c, ok := pkg.Scope().Lookup("GroupName").(*types.Const); ok && c.Val().Kind() == constant.String {
		group = known(constant.StringVal(c.Val()))
	}
	version := part{}
	if base := path.Base(pkg.Path()); isVersion(base) {
		version = known(base)
	}
	return gvOf(group, version)
}

func isVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] < '1' || s[1] > '9' {
		return false
	}
	return true
}

// localDefs are the local variables of one function given a value exactly
// once (a definition or a single assignment, not a range variable, its
// address never taken), and that value.
type localDefs struct {
	one  map[*types.Var]ast.Expr
	many map[*types.Var]bool
}

func (d *localDefs) def(v *types.Var) ast.Expr {
	if d.many[v] {
		return nil
	}
	return d.one[v]
}

func collectLocalDefs(info *types.Info, body *ast.BlockStmt) *localDefs {
	d := &localDefs{one: map[*types.Var]ast.Expr{}, many: map[*types.Var]bool{}}
	set := func(id *ast.Ident, val ast.Expr) {
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil {
			return
		}
		if _, seen := d.one[v]; seen || val == nil {
			d.many[v] = true
		}
		d.one[v] = val
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				var val ast.Expr
				if len(n.Lhs) == len(n.Rhs) {
					val = n.Rhs[i]
				}
				if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
					val = nil // x += y
				}
				switch l := lhs.(type) {
				case *ast.Ident:
					set(l, val)
				default:
					if root := ssax.AssignedIdent(lhs); root != nil {
						set(root, nil) // gvk.Kind = ...
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				var val ast.Expr
				if len(n.Values) == len(n.Names) {
					val = n.Values[i]
				}
				set(id, val)
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					set(id, nil)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if root := ssax.AssignedIdent(n.X); root != nil {
					set(root, nil)
				}
			}
		case *ast.IncDecStmt:
			if root := ssax.AssignedIdent(n.X); root != nil {
				set(root, nil)
			}
		}
		return true
	})
	return d
}

// assigned reports whether the body gives v a value (a parameter so
// assigned holds something else than its argument).
func (d *localDefs) assigned(v *types.Var) bool {
	_, ok := d.one[v]
	return ok || d.many[v]
}
