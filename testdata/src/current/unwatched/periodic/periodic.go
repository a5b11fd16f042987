// Package periodic reconciles every object again after a fixed delay,
// whatever happens (KubeRay v1.5.0's RayServiceReconciler ends Reconcile
// with `return ctrl.Result{RequeueAfter: ServiceDefaultRequeueDuration}, nil`
// and creates Gateways and HTTPRoutes it does not watch): a deleted child
// comes back at the next pass, so it is not reported.
package periodic

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Service struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *Service) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

type ServiceReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *ServiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	s := &Service{}
	if err := r.Get(ctx, req.NamespacedName, s); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: s.Namespace}}
	if err := ctrl.SetControllerReference(s, cm, r.Scheme); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Create(ctx, cm); err != nil {
		return ctrl.Result{}, client.IgnoreAlreadyExists(err)
	}
	return ctrl.Result{RequeueAfter: 2 * time.Second}, nil
}

func (r *ServiceReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&Service{}).Complete(r)
}
