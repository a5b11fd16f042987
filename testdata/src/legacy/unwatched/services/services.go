// Package services is a controller that keeps a Deployment and a Service
// per object with controllerutil.CreateOrUpdate, setting the controller
// reference in the mutate function, and whose builder Owns the
// Deployment only: VictoriaMetrics/operator#159 (fixed by #162, "adds
// watching for owned resources"), where a Service deleted by hand was
// recreated only at the next resync.
package services

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// VMAgent is the primary kind.
type VMAgent struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *VMAgent) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

type VMAgentReconciler struct {
	Client client.Client
	Scheme *runtime.Scheme
}

func (r *VMAgentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	agent := &VMAgent{}
	if err := r.Client.Get(ctx, req.NamespacedName, agent); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: agent.Name, Namespace: agent.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, dep, func() error {
		return controllerutil.SetControllerReference(agent, dep, r.Scheme) // owned: silent
	}); err != nil {
		return ctrl.Result{}, err
	}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: agent.Name, Namespace: agent.Namespace}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, svc, func() error {
		svc.Spec.Selector = map[string]string{"app": agent.Name}
		return controllerutil.SetControllerReference(agent, svc, r.Scheme) // want `this corev1.Service is given a controller reference to its VMAgent, but no controller of the package Owns or Watches corev1.Service`
	})
	return ctrl.Result{}, err
}

func (r *VMAgentReconciler) SetupWithManager(mgr ctrl.Manager) error {
	b := ctrl.NewControllerManagedBy(mgr).For(&VMAgent{})
	b = b.Owns(&appsv1.Deployment{})
	return b.Complete(r)
}
