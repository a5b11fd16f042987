// Package helped builds its controller through a helper of another shape
// (KubeRay's ray-operator hands its builder to
// batchscheduler.ConfigureReconciler before Complete): the helper may add
// watches, so which kinds are watched is not known and no child is
// reported.
package helped

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
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

type ClusterReconciler struct {
	client.Client
	Scheme    *runtime.Scheme
	Configure func(*builder.Builder) *builder.Builder
}

func (r *ClusterReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	c := &Cluster{}
	if err := r.Get(ctx, req.NamespacedName, c); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: c.Name, Namespace: c.Namespace}}
	if err := ctrl.SetControllerReference(c, dep, r.Scheme); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Create(ctx, dep)
}

func (r *ClusterReconciler) SetupWithManager(mgr ctrl.Manager) error {
	b := ctrl.NewControllerManagedBy(mgr).For(&Cluster{})
	b = r.Configure(b)
	return b.Complete(r)
}
