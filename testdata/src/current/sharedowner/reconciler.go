package sharedowner

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Widget is a namespaced custom resource (kubebuilder's default scope).
//
// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// WidgetClass is a cluster-scoped custom resource.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
type WidgetClass struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

type WidgetReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: w.Name + "-config", Namespace: req.Namespace}}
	controllerutil.SetControllerReference(&w, cm, r.Scheme) // want `the error of controllerutil.SetControllerReference is dropped`
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: w.Name, Namespace: w.Namespace}}
	_ = controllerutil.SetOwnerReference(&w, sa, r.Scheme) // want `the error of controllerutil.SetOwnerReference is dropped`
	// Checked: SetControllerReference refuses an object owned by someone
	// else, and cross-namespace or cluster-scoped references. Silent.
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: w.Name, Namespace: w.Namespace}}
	if err := controllerutil.SetControllerReference(&w, secret, r.Scheme); err != nil {
		return ctrl.Result{}, err
	}
	class := &WidgetClass{ObjectMeta: metav1.ObjectMeta{Name: w.Namespace + "-" + w.Name}}
	if err := controllerutil.SetControllerReference(&w, class, r.Scheme); err != nil { // want `cluster-scoped WidgetClass gets an owner reference to namespaced Widget`
		return ctrl.Result{}, err
	}
	// A namespaced Widget owned by a cluster-scoped WidgetClass: allowed.
	child := &Widget{ObjectMeta: metav1.ObjectMeta{Name: class.Name, Namespace: w.Namespace}}
	if err := controllerutil.SetOwnerReference(class, child, r.Scheme); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// DeepCopyObject methods, as controller-gen would generate them.

func (w *Widget) DeepCopyObject() runtime.Object {
	c := *w
	w.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

func (w *WidgetClass) DeepCopyObject() runtime.Object {
	c := *w
	w.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster

// GadgetClass is cluster-scoped; its markers stand above a blank line and
// the doc comment, as kubebuilder scaffolds them.
type GadgetClass struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (g *GadgetClass) DeepCopyObject() runtime.Object {
	c := *g
	g.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

// classifyWidget gives a namespaced Widget's GadgetClass a controller
// reference: reported, the markers being read across the blank line.
func (r *WidgetReconciler) classifyWidget(w *Widget) error {
	class := &GadgetClass{ObjectMeta: metav1.ObjectMeta{Name: w.Namespace + "-" + w.Name}}
	return controllerutil.SetControllerReference(w, class, r.Scheme) // want `cluster-scoped GadgetClass gets an owner reference to namespaced Widget`
}
