// Package handedon gives a child a controller reference to the object it
// reconciles only until it hands the child to another owner: kueue's
// provisioning controller (sigs.k8s.io/kueue v0.17.0,
// pkg/controller/admissionchecks/provisioning/controller.go) creates each
// PodTemplate owned by the Workload "so that the template is not left
// orphaned", then moves its controller reference to the
// ProvisioningRequest. An Owns(&corev1.PodTemplate{}) would map the
// template's events to the Workload for that moment only: not reported.
package handedon

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

type Workload struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *Workload) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

type Request struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *Request) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

type Controller struct {
	client client.Client
}

func (c *Controller) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	wl := &Workload{}
	if err := c.client.Get(ctx, req.NamespacedName, wl); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	pt := &corev1.PodTemplate{ObjectMeta: metav1.ObjectMeta{Name: wl.Name, Namespace: wl.Namespace}}
	if err := ctrl.SetControllerReference(wl, pt, c.client.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	if err := c.client.Create(ctx, pt); err != nil {
		return ctrl.Result{}, err
	}
	pr := &Request{ObjectMeta: metav1.ObjectMeta{Name: wl.Name, Namespace: wl.Namespace}}
	if err := c.client.Create(ctx, pr); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, c.handOn(ctx, wl, pr, pt)
}

// handOn moves the template's controller reference to the request.
func (c *Controller) handOn(ctx context.Context, wl *Workload, pr *Request, pt *corev1.PodTemplate) error {
	if err := controllerutil.RemoveControllerReference(wl, pt, c.client.Scheme()); err != nil {
		return err
	}
	if err := controllerutil.SetControllerReference(pr, pt, c.client.Scheme()); err != nil {
		return err
	}
	return c.client.Update(ctx, pt)
}

func (c *Controller) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Workload{}).
		Owns(&Request{}).
		Complete(c)
}
