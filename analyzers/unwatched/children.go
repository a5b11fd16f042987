package unwatched

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/crash"
)

// children reports the controller references set on objects of a kind no
// controller of the package watches, when the owner is a kind one of them
// reconciles (For) and the package writes objects of the child's kind.
func (p *pkg) children() {
	primary := make(map[string]*kubessa.Controller)
	for _, c := range p.ctrls {
		if c.Unknown {
			return // it may watch any kind
		}
		if p.requeuesAlways(c) {
			continue // a deleted child is put back at the next pass
		}
		for _, w := range c.For {
			primary[kube.ObjectKey(w.Object)] = c
		}
	}
	written := p.writtenKinds()
	handedOn := p.handedOnKinds()
	for fn, call := range p.calls {
		if !p.checked[fn] {
			continue
		}
		pkgPath, fname := kubessa.AliasCallee(call.Common())
		if pkgPath != kube.ControllerUtilPkg || fname != "SetControllerReference" || len(call.Call.Args) < 2 {
			continue
		}
		func() {
			defer crash.At(p.pass.Fset, fn.Pos())
			owner, child := kubessa.ObjectArg(call.Call.Args[0]), kubessa.ObjectArg(call.Call.Args[1])
			if owner == nil || child == nil || !kube.IsObjectType(child) {
				return // not known here which kinds they are
			}
			c := primary[kube.ObjectKey(owner)]
			if c == nil || !written[kube.ObjectKey(child)] || handedOn[kube.ObjectKey(child)] || p.watched(child) {
				return
			}
			k := p.kindName(child, call.Pos())
			p.pass.Reportf(call.Pos(), "this %s is given a controller reference to its %s, but no controller of the package Owns or Watches %s: "+
				"a deleted or changed %s is not put back until the next resync; add Owns(&%s{}) to the builder (%s)",
				k, p.kindName(owner, call.Pos()), k, k, k, summary.Where(p.pass.Fset, c.For[0].Call.Pos()))
		}()
	}
}

// watched reports whether some controller of the package watches t.
func (p *pkg) watched(t types.Type) bool {
	for _, c := range p.ctrls {
		if c.Watched(t) {
			return true
		}
	}
	return false
}

// handedOnKinds are the object types whose controller reference the
// package also removes (controllerutil.RemoveControllerReference): the
// reference to the controller's own kind is a placeholder until the child
// is handed to another owner (kueue's provisioning controller hands its
// PodTemplates to the ProvisioningRequest it creates next), and an Owns of
// the kind would map the child's events to that other owner.
func (p *pkg) handedOnKinds() map[string]bool {
	out := make(map[string]bool)
	for _, call := range p.calls {
		pkgPath, fname := kubessa.AliasCallee(call.Common())
		if pkgPath == kube.ControllerUtilPkg && fname == "RemoveControllerReference" && len(call.Call.Args) >= 2 {
			if t := kubessa.ObjectArg(call.Call.Args[1]); t != nil {
				out[kube.ObjectKey(t)] = true
			}
		}
	}
	return out
}

// writtenKinds are the object types the package's code creates, updates
// or patches through a controller-runtime client, or hands to
// controllerutil.CreateOrUpdate and CreateOrPatch: the children it keeps.
func (p *pkg) writtenKinds() map[string]bool {
	out := make(map[string]bool)
	add := func(v ssa.Value) {
		if t := kubessa.ObjectArg(v); t != nil {
			out[kube.ObjectKey(t)] = true
		}
	}
	for _, call := range p.calls {
		pkgPath, fname := kubessa.AliasCallee(call.Common())
		if pkgPath == kube.ControllerUtilPkg && (fname == "CreateOrUpdate" || fname == "CreateOrPatch") && len(call.Call.Args) >= 3 {
			add(call.Call.Args[2]) // (ctx, client, obj, mutate)
			continue
		}
		if m, _, args := ssax.MethodCall(call.Common()); kube.IsCRObjectWrite(m) && len(args) >= 2 {
			add(args[1]) // (ctx, obj, ...)
		}
	}
	return out
}

// requeuesAlways reports whether c's reconciler ends its Reconcile by
// asking to run again (`return ctrl.Result{RequeueAfter: d}, nil` as its
// last statement, KubeRay's RayService and RayCluster controllers): every
// object is reconciled again after d whatever happens, so a deleted child
// comes back then, not at the next resync.
func (p *pkg) requeuesAlways(c *kubessa.Controller) bool {
	recon := reconcilers(c)
	for _, fn := range p.funcs {
		recv := fn.Signature.Recv()
		if fn.Name() != "Reconcile" || recv == nil || !recon[types.TypeString(kube.Pointee(recv.Type()), nil)] {
			continue
		}
		decl, ok := fn.Syntax().(*ast.FuncDecl)
		if !ok || decl.Body == nil || len(decl.Body.List) == 0 {
			continue
		}
		ret, ok := decl.Body.List[len(decl.Body.List)-1].(*ast.ReturnStmt)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		lit, ok := ast.Unparen(ret.Results[0]).(*ast.CompositeLit)
		if !ok {
			continue
		}
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if key, ok := kv.Key.(*ast.Ident); ok && (key.Name == "RequeueAfter" || key.Name == "Requeue") {
					return true
				}
			}
		}
	}
	return false
}
