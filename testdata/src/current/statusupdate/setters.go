package statusupdate

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Metadata setters of kube's one setter table (kube.SetterOf) that
// statusupdate did not know while it kept a list of its own: a change made
// with them before a status write was not reported.

// release takes the App from the Gadget that controlled it, as
// controller-runtime's controllerutil.RemoveControllerReference
// (pkg/controller/controllerutil/controllerutil.go, v0.18 and later) is
// used to orphan an object, and records the release in the status: the
// status writer drops the owner-reference change.
func (r *AppReconciler) release(ctx context.Context, app *App, owner *Gadget) error {
	if err := controllerutil.RemoveControllerReference(owner, app, r.Scheme); err != nil {
		return err
	}
	app.Status.Phase = "Released"
	return r.Status().Update(ctx, app) // want `App owner references changed at line 20 are sent only with Status\(\).Update, which keeps nothing but the status of the App: the change is silently dropped; write it with the client.s Update, not Status\(\).Update`
}

// ensureFinalizer is controller-runtime's controllerutil.AddFinalizer as
// operators copy it into a helper of their own: the setter is called
// through the client.Object interface (o.SetFinalizers).
func ensureFinalizer(o client.Object, finalizer string) bool {
	for _, f := range o.GetFinalizers() {
		if f == finalizer {
			return false
		}
	}
	o.SetFinalizers(append(o.GetFinalizers(), finalizer))
	return true
}

// provision adds the finalizer with the helper and sends it with the
// status writer: dropped.
func (r *AppReconciler) provision(ctx context.Context, app *App) error {
	ensureFinalizer(app, finalizer)
	app.Status.Phase = "Provisioning"
	return r.Status().Update(ctx, app) // want `App finalizers changed at line 43 are sent only with Status\(\).Update`
}

// Correct idioms: silent.

// provisionBoth sends the helper's finalizer with Update, then the status.
func (r *AppReconciler) provisionBoth(ctx context.Context, app *App) error {
	if ensureFinalizer(app, finalizer) {
		if err := r.Update(ctx, app); err != nil {
			return err
		}
	}
	app.Status.Phase = "Provisioning"
	return r.Status().Update(ctx, app)
}

// provisionGadget: a Gadget has no status subresource, Update writes all.
func (r *AppReconciler) provisionGadget(ctx context.Context, g *Gadget) error {
	ensureFinalizer(g, finalizer)
	g.Status.Phase = "Provisioning"
	return r.Update(ctx, g)
}

// provisionObject knows no type: nothing says what the status write keeps.
func (r *AppReconciler) provisionObject(ctx context.Context, obj client.Object) error {
	ensureFinalizer(obj, finalizer)
	return r.Status().Update(ctx, obj)
}
