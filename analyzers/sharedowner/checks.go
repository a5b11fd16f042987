package sharedowner

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// check reports what is wrong with one owner reference.
func (c *checker) check(s setting) {
	pass := c.pass
	ownerType := types.Type(nil)
	if s.owner != nil {
		ownerType = pass.TypesInfo.TypeOf(s.owner)
	}
	ownerScope := kube.ScopeOf(ownerType, c.src)
	childScope := kube.ScopeOf(s.child.typ, c.src)
	child, owner := kind(s.child.typ), kind(ownerType)

	if s.owner == nil && s.call == nil {
		return // a reference of constants, no owner in sight: fixture data
	}
	if s.discarded {
		c.report(s.call, "the error of %s is dropped: it is how controller-runtime reports that the %s is already controlled by another owner (a shared object) or that the reference is invalid, and the object is then written without it",
			calleeName(pass, s.call), child)
	}
	if childScope == kube.ClusterScoped && ownerScope == kube.Namespaced {
		c.report(s.at, "cluster-scoped %s gets an owner reference to namespaced %s: the garbage collector treats it as unresolvable (event OwnerRefInvalidNamespace) and never collects the %s",
			child, owner, child)
		return // name and namespace add nothing to that
	}
	if len(s.child.generateName) == 0 && len(s.child.name) > 0 && allConstant(pass, s.child.name) && !c.inOwnersNamespace(s) {
		c.report(s.at, "owned %s has the fixed name %s: every %s claims the same object, and deleting any one of them makes the garbage collector delete it for all",
			child, describe(pass, s.child.name[0]), owner)
	} else if s.controller && !c.claims {
		// A function that checks who controls the object (cert-manager's
		// ingress-shim: IsControlledBy, else leave it alone) refuses the
		// second owner: the sharing is handled.
		if from := c.namedAfterOther(s); from != nil {
			c.report(s.at, "owned %s is named after another object (%s), not after its %s owner: every %s that references the same object claims the same %s, and deleting any one of them makes the garbage collector delete it for all",
				child, types.ExprString(from), owner, owner, child)
		}
	}
	if childScope != kube.ClusterScoped && ownerScope == kube.Namespaced {
		for _, ns := range s.child.namespace {
			if why := c.foreignNamespace(ns, s.owner); why != "" {
				c.report(s.at, "owned %s is placed in %s, not in its %s owner's namespace: cross-namespace owner references are invalid, the garbage collector treats the owner as absent and may delete the %s",
					child, why, owner, child)
				break
			}
		}
	}
	if s.child.fetched && s.controller && (s.call == nil || s.discarded) && !c.claims {
		c.report(s.at, "an existing %s read from a cache or the API server gets a controller reference without checking who controls it (metav1.GetControllerOf, a controller-ref manager): it may belong to another owner, whose deletion would no longer clean it up",
			child)
	}
}

// foreignNamespace explains why a namespace expression is not the owner's:
// a constant, or another object's namespace. "" when it may be the owner's.
func (c *checker) foreignNamespace(ns ast.Expr, owner ast.Expr) string {
	if tv, ok := c.pass.TypesInfo.Types[ns]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		if constant.StringVal(tv.Value) == "" {
			return "" // no namespace: filled in by the request or the owner's
		}
		return "the fixed namespace " + tv.Value.ExactString()
	}
	id := ssax.RootIdent(ns)
	if id == nil || id == ns {
		return "" // a plain variable: where it came from is unknown
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !kube.IsObjectType(v.Type()) {
		return "" // req.Namespace and friends: not another object
	}
	if oid := ssax.RootIdent(owner); oid != nil && c.pass.TypesInfo.Uses[oid] == v {
		return "" // the owner's own namespace
	}
	return "the namespace of " + id.Name
}

// inOwnersNamespace reports whether the child is placed in the namespace
// its owner is: a Namespace owning objects inside itself (knative's
// per-namespace "serving-certs" Certificate). Each owner then has its own
// object of that fixed name; none is shared.
func (c *checker) inOwnersNamespace(s setting) bool {
	oid := ssax.RootIdent(s.owner)
	if oid == nil || len(s.child.namespace) == 0 {
		return false
	}
	owner := c.pass.TypesInfo.Uses[oid]
	for _, ns := range s.child.namespace {
		ns = ast.Unparen(ns)
		if call, ok := ns.(*ast.CallExpr); ok && len(call.Args) == 0 {
			ns = call.Fun // owner.GetName()
		}
		sel, ok := ns.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Name" && sel.Sel.Name != "GetName" {
			return false
		}
		id := ssax.RootIdent(sel.X)
		if id == nil || c.pass.TypesInfo.Uses[id] != owner {
			return false
		}
	}
	return true
}

// allConstant reports whether every expression is a constant string or a
// package-level string variable (not derived from any owner).
func allConstant(pass *analysis.Pass, es []ast.Expr) bool {
	for _, e := range es {
		if tv, ok := pass.TypesInfo.Types[e]; ok && tv.Value != nil {
			continue
		}
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || v.Parent() != pass.Pkg.Scope() {
			return false
		}
	}
	return true
}

func describe(pass *analysis.Pass, e ast.Expr) string {
	if tv, ok := pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		return tv.Value.ExactString()
	}
	return types.ExprString(e)
}

// kind names an object type for a message ("ConfigMap"), or "object".
func kind(t types.Type) string {
	if k := kube.Kind(t); k != "" {
		return k
	}
	return "object"
}

func calleeName(pass *analysis.Pass, call *ast.CallExpr) string {
	if fn := typeutilCallee(pass, call); fn != nil && fn.Pkg() != nil {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return types.ExprString(call.Fun)
}

func (c *checker) report(at ast.Node, format string, args ...any) {
	c.pass.Report(analysis.Diagnostic{Pos: at.Pos(), End: at.End(), Message: fmt.Sprintf(format, args...)})
}
