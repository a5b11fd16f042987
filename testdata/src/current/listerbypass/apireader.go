package listerbypass

// Shaped on cluster-api's topology Cluster reconciler before v1.5
// (sigs.k8s.io/cluster-api@v1.4.5 internal/controllers/topology/cluster:
// cluster_controller.go Reconcile and current_state.go
// getCurrentMachineDeploymentState; fixed by PRs 8936 and 8922), and on its
// v1.5 double-check before creating (reconcile_state.go
// getCurrentMachineDeployments). main sets APIReader from
// mgr.GetAPIReader(), so this package never sees where the reader comes
// from: the field's type and name say it.

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TopologyReconciler reconciles StatefulSets and the Services they own.
type TopologyReconciler struct {
	Client client.Client
	// APIReader is used to read directly from the API server to avoid
	// races with an outdated cache.
	APIReader client.Reader
}

func (r *TopologyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.StatefulSet{}).
		Watches(&corev1.Service{}, handler.EnqueueRequestsFromMapFunc(r.serviceToSet)).
		Complete(r)
}

func (r *TopologyReconciler) serviceToSet(_ context.Context, o client.Object) []reconcile.Request {
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: o.GetNamespace(), Name: o.GetName()}}}
}

func (r *TopologyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	// The object whose event started this reconcile, read live on every
	// reconcile although the cache has it: that its copy is patched below
	// makes it no read-modify-write the cache cannot serve.
	set := &appsv1.StatefulSet{}
	if err := r.APIReader.Get(ctx, req.NamespacedName, set); err != nil { // want `Get of StatefulSet through an uncached reader goes to the API server on every reconcile, though the manager's cache watches StatefulSet`
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, err := r.currentServices(ctx, set); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.createMissing(ctx, set); err != nil {
		return ctrl.Result{}, err
	}
	patch := client.MergeFrom(set.DeepCopy())
	set.Labels = map[string]string{"topology": "reconciled"}
	return ctrl.Result{}, r.Client.Patch(ctx, set, patch)
}

// currentServices lists the watched Services through the API reader on
// every reconcile.
func (r *TopologyReconciler) currentServices(ctx context.Context, set *appsv1.StatefulSet) (map[string]*corev1.Service, error) {
	list := &corev1.ServiceList{}
	if err := r.APIReader.List(ctx, list, client.InNamespace(set.Namespace), client.MatchingLabels{"set": set.Name}); err != nil { // want `List of Service through an uncached reader goes to the API server on every reconcile, though the manager's cache watches Service`
		return nil, err
	}
	out := map[string]*corev1.Service{}
	for i := range list.Items {
		out[list.Items[i].Name] = &list.Items[i]
	}
	return out, nil
}

// createMissing double-checks with a live List that the Services it is
// about to create do not exist yet: a lagging cache would create them
// twice. Silent.
func (r *TopologyReconciler) createMissing(ctx context.Context, set *appsv1.StatefulSet) error {
	existing, err := r.liveServiceNames(ctx, set)
	if err != nil {
		return err
	}
	for _, name := range []string{set.Name + "-headless", set.Name + "-client"} {
		if existing.Has(name) {
			continue
		}
		if err := r.createService(ctx, set, name); err != nil {
			return err
		}
	}
	return nil
}

func (r *TopologyReconciler) liveServiceNames(ctx context.Context, set *appsv1.StatefulSet) (sets.Set[string], error) {
	list := &corev1.ServiceList{}
	if err := r.APIReader.List(ctx, list, client.InNamespace(set.Namespace)); err != nil {
		return nil, err
	}
	names := sets.New[string]()
	for _, s := range list.Items {
		names.Insert(s.Name)
	}
	return names, nil
}

func (r *TopologyReconciler) createService(ctx context.Context, set *appsv1.StatefulSet, name string) error {
	svc := &corev1.Service{}
	svc.Namespace, svc.Name = set.Namespace, name
	if err := ctrl.SetControllerReference(set, svc, r.Client.Scheme()); err != nil {
		return err
	}
	return r.Client.Create(ctx, svc)
}

// RoleReconciler watches Roles as metadata only (cluster-api's CRD
// migrator, v1.14): the cache keeps PartialObjectMetadata, so a typed read
// of a Role has no cache to use. Silent.
type RoleReconciler struct {
	Client    client.Client
	apiReader client.Reader
}

func (r *RoleReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.apiReader = mgr.GetAPIReader()
	return ctrl.NewControllerManagedBy(mgr).For(&rbacv1.Role{}, builder.OnlyMetadata).Complete(r)
}

func (r *RoleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	role := &rbacv1.Role{}
	if err := r.apiReader.Get(ctx, req.NamespacedName, role); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	role.Labels = map[string]string{"migrated": "true"}
	return ctrl.Result{}, r.Client.Update(ctx, role)
}

// ReplicaSetReconciler re-reads another ReplicaSet, not the request's, to
// update it: a read-modify-write of an object no event named. Silent.
type ReplicaSetReconciler struct {
	Client    client.Client
	APIReader client.Reader
}

func (r *ReplicaSetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&appsv1.ReplicaSet{}).Complete(r)
}

func (r *ReplicaSetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	peer := &appsv1.ReplicaSet{}
	if err := r.APIReader.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: req.Name + "-peer"}, peer); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	peer.Annotations = map[string]string{"peer-of": req.Name}
	return ctrl.Result{}, r.Client.Update(ctx, peer)
}
