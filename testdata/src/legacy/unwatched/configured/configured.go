// Package configured hands its builder to a configurer that may add
// watches of its own (KubeRay v1.5.0's RayClusterReconciler.SetupWithManager
// calls r.options.BatchSchedulerManager.ConfigureReconciler(b) and goes on
// with b): which kinds are watched is not known, and no child is reported.
package configured

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Cluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *Cluster) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

// Configurer adds the watches a batch scheduler needs.
type Configurer interface {
	ConfigureReconciler(b *builder.Builder)
}

type ClusterReconciler struct {
	client.Client
	Scheme    *runtime.Scheme
	Scheduler Configurer
}

func (r *ClusterReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	c := &Cluster{}
	if err := r.Get(ctx, req.NamespacedName, c); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: c.Name, Namespace: c.Namespace}}
	if err := ctrl.SetControllerReference(c, sa, r.Scheme); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Create(ctx, sa)
}

func (r *ClusterReconciler) SetupWithManager(mgr ctrl.Manager) error {
	b := ctrl.NewControllerManagedBy(mgr).For(&Cluster{})
	if r.Scheduler != nil {
		r.Scheduler.ConfigureReconciler(b)
	}
	return b.Complete(r)
}
