package sharedowner

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/directive"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/crash"
	"github.com/ctrllint/ctrllint/internal/lend"
)

const name = "sharedowner"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "OwnerReferenceOnSharedChild",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{inspect.Analyzer, lend.Analyzer, summary.Analyzer},
	FactTypes: []analysis.Fact{new(ownerFact)},
	Run:       run,
})

// Analyzer reports owner references that make the garbage collector delete
// shared objects, or that it treats as absent.
var Analyzer = Definition.Analyzer

// A setting is one place where an owner reference is set on a child.
type setting struct {
	at         ast.Node // where to report
	owner      ast.Expr // nil when the reference names no owner variable
	child      *object
	controller bool
	call       *ast.CallExpr // controller-runtime's setter, for its error
	discarded  bool          // the setter's error is dropped
}

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.MetaV1Pkg) == nil || summary.Library(pass) {
		return nil, nil // no Kubernetes objects in sight, or the libraries themselves
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	src := kube.NewSource(pass)
	var decls []*ast.FuncDecl
	for cur := range ins.Root().Preorder((*ast.FuncDecl)(nil)) {
		if !isTestFile(pass, cur.Node()) {
			decls = append(decls, cur.Node().(*ast.FuncDecl))
		}
	}
	helper := helpers(pass, summaries(pass, src, decls))
	generated := directive.GeneratedFiles(pass)
	for cur := range ins.Root().Preorder((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		if isTestFile(pass, cur.Node()) {
			continue // objects built in tests are test data, not children
		}
		if directive.InGenerated(pass.Fset, generated, cur.Node().Pos()) {
			continue // its findings would be dropped: generated code is fixed at its generator
		}
		var body *ast.BlockStmt
		switch fn := cur.Node().(type) {
		case *ast.FuncDecl:
			body = fn.Body
		case *ast.FuncLit:
			body = fn.Body
		}
		if body == nil {
			continue
		}
		checkFunc(pass, src, body, helper)
	}
	return nil, nil
}

func isTestFile(pass *analysis.Pass, n ast.Node) bool {
	return strings.HasSuffix(pass.Fset.Position(n.Pos()).Filename, "_test.go")
}

// checkFunc checks the owner references one function body sets.
func checkFunc(pass *analysis.Pass, src *kube.Source, body *ast.BlockStmt, helper func(*types.Func) *ownerFact) {
	defer crash.At(pass.Fset, body.Pos())
	c := &checker{pass: pass, src: src, objs: collectObjects(pass, body), defs: collectDefs(pass, body), helper: helper}
	c.claims = claimChecks(pass, body)
	for _, s := range c.settings(body) {
		c.check(s)
	}
}

type checker struct {
	pass   *analysis.Pass
	src    *kube.Source // the pass's: markers of the types it meets
	objs   *objects
	claims bool // the function checks who controls the object
	// defs are the local owner references given a value once
	// (collectDefs); following guards refsOwner against cycles.
	defs      map[*types.Var]ast.Expr
	following map[*types.Var]bool
	// helper is the summary of a function called, nil while summarising
	// (a summary says what a function does by itself).
	helper func(*types.Func) *ownerFact
}

// settings finds where the function sets owner references.
func (c *checker) settings(body *ast.BlockStmt) []setting {
	var out []setting
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false // checked as a function of its own
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			// ObjectMeta{OwnerReferences: ...} inside an object literal.
			if key, ok := n.Key.(*ast.Ident); ok && key.Name == "OwnerReferences" {
				if child := c.enclosingObject(stack); child != nil {
					owner, controller := c.refsOwner(n.Value)
					out = append(out, setting{at: n, owner: owner, child: child, controller: controller})
				}
			}
		case *ast.CallExpr:
			if s, ok := c.callSetting(n); ok {
				if s.call != nil && len(stack) >= 2 {
					s.discarded = discards(stack[len(stack)-2], n)
				}
				out = append(out, s)
			} else {
				out = append(out, c.helperSettings(n)...)
			}
		case *ast.AssignStmt:
			// x.OwnerReferences = append(x.OwnerReferences, ref)
			for i, lhs := range n.Lhs {
				sel, ok := lhs.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "OwnerReferences" || i >= len(n.Rhs) {
					continue
				}
				base := sel.X
				if inner, ok := base.(*ast.SelectorExpr); ok && inner.Sel.Name == "ObjectMeta" {
					base = inner.X
				}
				if child := c.objs.of(base); child != nil {
					owner, controller := c.refsOwner(n.Rhs[i])
					out = append(out, setting{at: n, owner: owner, child: child, controller: controller})
				}
			}
		}
		return true
	})
	return out
}

// enclosingObject finds the object literal an ObjectMeta literal belongs to.
func (c *checker) enclosingObject(stack []ast.Node) *object {
	for i := len(stack) - 1; i >= 0; i-- {
		if lit, ok := stack[i].(*ast.CompositeLit); ok {
			if obj := c.objs.literal(lit); obj != nil {
				return obj
			}
		}
	}
	return nil
}

// callSetting recognises x.SetOwnerReferences(refs) and controller-runtime's
// SetControllerReference / SetOwnerReference.
func (c *checker) callSetting(call *ast.CallExpr) (setting, bool) {
	fun := ast.Unparen(call.Fun)
	sel, _ := fun.(*ast.SelectorExpr)
	if sel != nil && sel.Sel.Name == "SetOwnerReferences" && len(call.Args) == 1 {
		if child := c.objs.of(sel.X); child != nil {
			owner, controller := c.refsOwner(call.Args[0])
			return setting{at: call, owner: owner, child: child, controller: controller}, true
		}
		return setting{}, false
	}
	fn := typeutilCallee(c.pass, call)
	of, ok := kube.OwnerFuncOf(fn)
	if !ok || !of.ReturnsErr || len(call.Args) < 2 {
		return setting{}, false
	}
	child := c.objs.of(call.Args[1])
	if child == nil {
		child = &object{typ: c.pass.TypesInfo.TypeOf(call.Args[1])}
	}
	return setting{at: call, owner: call.Args[0], child: child, controller: of.Controller, call: call}, true
}

// refsOwner finds the owner an owner-reference expression names:
// NewControllerRef(owner, gvk), an OwnerReference literal whose Name or
// UID is read from the owner, a helper's reference to its argument
// (ownerFact), or a local variable given one of those once. controller
// says whether it is a controller reference.
func (c *checker) refsOwner(e ast.Expr) (owner ast.Expr, controller bool) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := typeutilCallee(c.pass, n)
			if of, ok := kube.OwnerFuncOf(fn); ok && !of.ReturnsErr && len(n.Args) > 0 {
				owner, controller = n.Args[0], true
				return false
			}
			if c.helper != nil {
				if f := c.helper(fn); f != nil && f.Returns {
					if arg := argOf(c.pass, n, fn, f.Owner); arg != nil {
						owner, controller = ownerArg(arg), f.Controller
						return false
					}
				}
			}
		case *ast.Ident:
			v, ok := c.pass.TypesInfo.Uses[n].(*types.Var)
			def, isDef := c.defs[v]
			if !ok || !isDef || c.following[v] {
				return true
			}
			if c.following == nil {
				c.following = make(map[*types.Var]bool)
			}
			c.following[v] = true
			o, ctl := c.refsOwner(def)
			delete(c.following, v)
			if o != nil && owner == nil {
				owner = o
			}
			controller = controller || ctl
			return false
		case *ast.CompositeLit:
			if !kube.Is(c.pass.TypesInfo.TypeOf(n), kube.MetaV1Pkg, "OwnerReference") {
				return true
			}
			for _, elt := range n.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				switch key, _ := kv.Key.(*ast.Ident); {
				case key == nil:
				case key.Name == "Controller":
					controller = true
				case key.Name == "Name" || key.Name == "UID":
					if root := ssax.RootIdent(kv.Value); root != nil && owner == nil {
						owner = root
					}
				}
			}
			return false
		}
		return true
	})
	return owner, controller
}

// claimChecks reports whether a function body checks who controls an
// object before claiming it.
func claimChecks(pass *analysis.Pass, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && kube.IsClaimCheck(typeutilCallee(pass, call)) {
			found = true
		}
		return !found
	})
	return found
}

// typeutilCallee is the function or method a call statically names.
func typeutilCallee(pass *analysis.Pass, call *ast.CallExpr) *types.Func {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ := pass.TypesInfo.Uses[fun].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if s, ok := pass.TypesInfo.Selections[fun]; ok {
			fn, _ := s.Obj().(*types.Func)
			return fn
		}
		fn, _ := pass.TypesInfo.Uses[fun.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr:
		return typeutilCallee(pass, &ast.CallExpr{Fun: fun.X})
	}
	return nil
}

// discards reports whether the statement holding call drops its result:
// a call statement, or an assignment to the blank identifier.
func discards(parent ast.Node, call *ast.CallExpr) bool {
	switch p := parent.(type) {
	case *ast.ExprStmt:
		return true
	case *ast.AssignStmt:
		for i, rhs := range p.Rhs {
			if ast.Unparen(rhs) == call && i < len(p.Lhs) {
				id, ok := p.Lhs[i].(*ast.Ident)
				return ok && id.Name == "_"
			}
		}
	case *ast.DeferStmt, *ast.GoStmt:
		return true
	}
	return false
}
