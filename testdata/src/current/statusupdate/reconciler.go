package statusupdate

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const finalizer = "example.com/cleanup"

type AppReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// Reconcile sets a condition and sends it with Update: dropped.
func (r *AppReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var app App
	if err := r.Get(ctx, req.NamespacedName, &app); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	meta.SetStatusCondition(&app.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Deployed", ObservedGeneration: app.Generation})
	app.Status.ObservedGeneration = app.Generation
	if err := r.Update(ctx, &app); err != nil { // want `App status set at line 30 is sent only with Update, which ignores status: App has a status subresource, so the change is silently dropped; write status with Status\(\).Update`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// finalize adds a finalizer and sends it with the status writer: dropped.
func (r *AppReconciler) finalize(ctx context.Context, app *App) error {
	controllerutil.AddFinalizer(app, finalizer)
	app.Status.Phase = "Provisioning"
	return r.Status().Update(ctx, app) // want `App finalizers changed at line 40 are sent only with Status\(\).Update, which keeps nothing but the status of the App: the change is silently dropped; write it with the client.s Update, not Status\(\).Update`
}

// scale changes the spec and sends it with the status writer: dropped.
func (r *AppReconciler) scale(ctx context.Context, app *App, replicas int32) error {
	app.Spec.Replicas = replicas
	return r.SubResource("status").Update(ctx, app) // want `App spec changed at line 47 is sent only with SubResource\("status"\).Update`
}

// patchPhase patches the main resource with a status change: dropped.
func (r *AppReconciler) patchPhase(ctx context.Context, app *App) error {
	patch := client.MergeFrom(app.DeepCopy())
	app.Status.Phase = "Ready"
	return r.Patch(ctx, app, patch) // want `App status set at line 54 is sent only with Patch`
}

// setReady is a package helper that stores a condition.
func setReady(app *App, reason string) {
	meta.SetStatusCondition(&app.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: reason, ObservedGeneration: app.Generation})
}

// viaHelper: the helper's store counts where it is called.
func (r *AppReconciler) viaHelper(ctx context.Context, app *App) error {
	setReady(app, "Synced")
	return r.Update(ctx, app) // want `App status set at line 65 is sent only with Update`
}

// update is a helper that sends with the main resource.
func (r *AppReconciler) update(ctx context.Context, app *App) error {
	return r.Update(ctx, app, client.FieldOwner("app-controller"))
}

// viaUpdateHelper: the send through the helper is reported where the
// helper is called, and no fix is offered.
func (r *AppReconciler) viaUpdateHelper(ctx context.Context, app *App) error {
	app.Status.Phase = "Failed"
	return r.update(ctx, app) // want `App status set at line 77 is sent only with r.update \(which calls Update\)`
}

// Correct idioms: silent.

// statusOnly writes status through the status writer.
func (r *AppReconciler) statusOnly(ctx context.Context, app *App) error {
	meta.SetStatusCondition(&app.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Deployed", ObservedGeneration: app.Generation})
	return r.Status().Update(ctx, app)
}

// both writes the finalizer with Update and the status with the status
// writer, status first.
func (r *AppReconciler) both(ctx context.Context, app *App) error {
	app.Status.Phase = "Provisioning"
	if err := r.Status().Update(ctx, app); err != nil {
		return err
	}
	if controllerutil.AddFinalizer(app, finalizer) {
		return r.Update(ctx, app)
	}
	return nil
}

// bothSpecFirst changes the spec, sends it, then the status.
func (r *AppReconciler) bothSpecFirst(ctx context.Context, app *App) error {
	app.Spec.Replicas = 3
	app.Status.Phase = "Scaling"
	if err := r.Update(ctx, app); err != nil {
		return err
	}
	app.Status.Phase = "Scaling"
	return r.Status().Update(ctx, app)
}

// deferred sends the status in a defer, whatever path the function takes.
func (r *AppReconciler) deferred(ctx context.Context, app *App) (err error) {
	defer func() {
		if uerr := r.Status().Update(ctx, app); uerr != nil && err == nil {
			err = uerr
		}
	}()
	app.Status.Phase = "Syncing"
	if controllerutil.AddFinalizer(app, finalizer) {
		return r.Update(ctx, app)
	}
	return nil
}

// statusHelper is a package helper that sends with the status writer.
func (r *AppReconciler) statusHelper(ctx context.Context, app *App) error {
	return r.Status().Update(ctx, app)
}

// viaStatusHelper: the helper's status write excuses the Update.
func (r *AppReconciler) viaStatusHelper(ctx context.Context, app *App) error {
	app.Status.Phase = "Ready"
	if err := r.Update(ctx, app); err != nil {
		return err
	}
	return r.statusHelper(ctx, app)
}

// gadget has no status subresource: Update writes its status.
func (r *AppReconciler) gadget(ctx context.Context, g *Gadget) error {
	g.Status.Phase = "Ready"
	return r.Update(ctx, g)
}

// configMap has no status at all; labels go with Update.
func (r *AppReconciler) configMap(ctx context.Context, cm *corev1.ConfigMap) error {
	cm.Labels["app"] = "x"
	return r.Update(ctx, cm)
}

// created objects carry their spec in Create; the status follows.
func (r *AppReconciler) created(ctx context.Context, app *App) error {
	app.Spec.Image = "nginx"
	if err := r.Create(ctx, app); err != nil {
		return err
	}
	app.Status.Phase = "Pending"
	return r.Status().Update(ctx, app)
}

// loop updates the status of each Deployment it reads; the spec store of
// one iteration does not reach the next object's status write.
func (r *AppReconciler) loop(ctx context.Context, names []string) error {
	for _, name := range names {
		d := &appsv1.Deployment{}
		if err := r.Get(ctx, client.ObjectKey{Name: name}, d); err != nil {
			return err
		}
		d.Status.ObservedGeneration = d.Generation
		if err := r.Status().Update(ctx, d); err != nil {
			return err
		}
		d.Spec.Paused = true
		if err := r.Update(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

// pauseAll pauses each Deployment; the status it clears afterwards is for
// its caller's eyes and reaches the next Update only through the next
// object's definition.
func (r *AppReconciler) pauseAll(ctx context.Context, names []string) ([]*appsv1.Deployment, error) {
	var out []*appsv1.Deployment
	for _, name := range names {
		d := &appsv1.Deployment{}
		if err := r.Get(ctx, client.ObjectKey{Name: name}, d); err != nil {
			return nil, err
		}
		d.Spec.Paused = true
		if err := r.Update(ctx, d); err != nil {
			return nil, err
		}
		d.Status.Conditions = nil
		out = append(out, d)
	}
	return out, nil
}

// clearStatus drops the status on purpose before a main write.
func (r *AppReconciler) clearStatus(ctx context.Context, app *App) error {
	app.Status = AppStatus{}
	app.Spec.Image = "nginx:2"
	return r.Update(ctx, app)
}

// requeue keeps the status in memory for the next pass; it sends nothing.
func (r *AppReconciler) requeue(app *App) ctrl.Result {
	app.Status.Phase = "Waiting"
	return ctrl.Result{RequeueAfter: time.Second}
}

// ensureApp writes the status inside CreateOrUpdate's mutate function,
// which controller-runtime documents as discarded.
func (r *AppReconciler) ensureApp(ctx context.Context, name, ns string) error {
	app := &App{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, app, func() error { // want `App status set at line 222 is sent only with controllerutil.CreateOrUpdate, which ignores status: App has a status subresource, so the change is silently dropped; write status with Status\(\).Update after it, or with controllerutil.CreateOrPatch`
		app.Spec.Image = "nginx"
		app.Status.Phase = "Pending"
		return nil
	})
	return err
}

// ensureAppPatch uses CreateOrPatch, which patches the status too: silent.
func (r *AppReconciler) ensureAppPatch(ctx context.Context, name, ns string) error {
	app := &App{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	_, err := controllerutil.CreateOrPatch(ctx, r.Client, app, func() error {
		app.Spec.Image = "nginx"
		app.Status.Phase = "Pending"
		return nil
	})
	return err
}

// ensureDeployment mutates the spec only: silent.
func (r *AppReconciler) ensureDeployment(ctx context.Context, app *App) error {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: app.Name, Namespace: app.Namespace}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, d, func() error {
		replicas := app.Spec.Replicas
		d.Spec.Replicas = &replicas
		return controllerutil.SetControllerReference(app, d, r.Scheme)
	})
	return err
}
