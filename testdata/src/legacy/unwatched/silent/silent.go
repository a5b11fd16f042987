// Package silent holds controllers that watch every kind they create, in
// the ways real builders do: Owns, Watches with EnqueueRequestForOwner
// (gatekeeper's constrainttemplate controller after #448), a raw source
// (cluster-api's external object tracker), metadata only; and owner
// references the analyzer must leave alone.
package silent

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

type Template struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *Template) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

type TemplateReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *TemplateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	t := &Template{}
	if err := r.Get(ctx, req.NamespacedName, t); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	meta := metav1.ObjectMeta{Name: t.Name, Namespace: t.Namespace}
	for _, child := range []client.Object{&appsv1.Deployment{ObjectMeta: meta}, &corev1.ConfigMap{ObjectMeta: meta}} {
		// An interface value: which kind it is is not known here.
		if err := ctrl.SetControllerReference(t, child, r.Scheme); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Create(ctx, child); err != nil {
			return ctrl.Result{}, err
		}
	}
	cm := &corev1.ConfigMap{ObjectMeta: meta}
	if err := controllerutil.SetControllerReference(t, cm, r.Scheme); err != nil { // Watches with EnqueueRequestForOwner
		return ctrl.Result{}, err
	}
	sec := &corev1.Secret{ObjectMeta: meta}
	if err := controllerutil.SetControllerReference(t, sec, r.Scheme); err != nil { // a raw source
		return ctrl.Result{}, err
	}
	sa := &corev1.ServiceAccount{ObjectMeta: meta}
	if err := controllerutil.SetControllerReference(t, sa, r.Scheme); err != nil { // metadata only
		return ctrl.Result{}, err
	}
	pvc := &corev1.PersistentVolumeClaim{ObjectMeta: meta}
	// Not a controller reference: Owns would not map it either.
	if err := controllerutil.SetOwnerReference(t, pvc, r.Scheme); err != nil {
		return ctrl.Result{}, err
	}
	for _, obj := range []client.Object{cm, sec, sa, pvc} {
		if err := r.Create(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

func (r *TemplateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Template{}).
		Owns(&appsv1.Deployment{}).
		Watches(&corev1.ConfigMap{}, handler.EnqueueRequestForOwner(mgr.GetScheme(), mgr.GetRESTMapper(), &Template{}, handler.OnlyControllerOwner())).
		WatchesRawSource(source.Kind(mgr.GetCache(), &corev1.Secret{}, handler.TypedEnqueueRequestForOwner[*corev1.Secret](mgr.GetScheme(), mgr.GetRESTMapper(), &Template{}))).
		WatchesMetadata(&corev1.ServiceAccount{}, handler.EnqueueRequestForOwner(mgr.GetScheme(), mgr.GetRESTMapper(), &Template{})).
		Complete(r)
}

// Stamp is a kind the package's controller does not reconcile: its
// children are another controller's business.
type Stamp struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *Stamp) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

func stampService(ctx context.Context, c client.Client, s *Stamp, scheme *runtime.Scheme) error {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: s.Namespace}}
	if err := controllerutil.SetControllerReference(s, svc, scheme); err != nil {
		return err
	}
	return c.Create(ctx, svc)
}
