// This file is shaped on the Memcached controller of kubebuilder's
// deploy-image plugin (testdata/project-v4-with-plugins/internal/
// controller/memcached_controller.go, kubernetes-sigs/kubebuilder at
// 00124f88): it gets the Memcached, adds a finalizer, keeps a Deployment
// of memcached pods at the Memcached's size and records conditions in its
// status. Here its markers were written by hand, as before the scaffold
// had them: the deployments marker has no create, so the Deployment is
// never created, and there is no memcacheds/finalizers marker, so on
// OpenShift it could not be either.

package rbacmarkers

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	cachev1alpha1 "example.com/current/rbacmarkers/api/v1alpha1"
)

const memcachedFinalizer = "example.com.testproject.org/finalizer"

// MemcachedReconciler reconciles a Memcached object.
type MemcachedReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// +kubebuilder:rbac:groups=example.com.testproject.org,resources=memcacheds,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=example.com.testproject.org,resources=memcacheds/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;update;patch;delete

// Reconcile keeps the Memcached's Deployment at its size.
func (r *MemcachedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	memcached := &cachev1alpha1.Memcached{}
	if err := r.Get(ctx, req.NamespacedName, memcached); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if memcached.Status == nil {
		memcached.Status = &cachev1alpha1.MemcachedStatus{}
	}
	if !controllerutil.ContainsFinalizer(memcached, memcachedFinalizer) {
		controllerutil.AddFinalizer(memcached, memcachedFinalizer)
		if err := r.Update(ctx, memcached); err != nil {
			return ctrl.Result{}, err
		}
	}

	found := &appsv1.Deployment{}
	err := r.Get(ctx, types.NamespacedName{Name: memcached.Name, Namespace: memcached.Namespace}, found)
	if err != nil && apierrors.IsNotFound(err) {
		dep, err := r.deploymentForMemcached(memcached)
		if err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Create(ctx, dep); err != nil { // want `r\.Create creates a Deployment, and no \+kubebuilder:rbac marker grants create on deployments\.apps: the API server refuses the call under the role controller-gen generates; add // \+kubebuilder:rbac:groups=apps,resources=deployments,verbs=create`
			return ctrl.Result{}, err
		}
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	} else if err != nil {
		return ctrl.Result{}, err
	}

	if size := memcached.Spec.Size; size != nil && (found.Spec.Replicas == nil || *found.Spec.Replicas != *size) {
		found.Spec.Replicas = size
		if err := r.Update(ctx, found); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{Requeue: true}, nil
	}

	meta.SetStatusCondition(&memcached.Status.Conditions, metav1.Condition{Type: "Available", Status: metav1.ConditionTrue, Reason: "Reconciling", ObservedGeneration: memcached.Generation})
	return ctrl.Result{}, r.Status().Update(ctx, memcached)
}

// deploymentForMemcached returns the Memcached's Deployment, owned by it.
func (r *MemcachedReconciler) deploymentForMemcached(memcached *cachev1alpha1.Memcached) (*appsv1.Deployment, error) {
	dep := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: memcached.Name, Namespace: memcached.Namespace},
		Spec:       appsv1.DeploymentSpec{Replicas: memcached.Spec.Size},
	}
	if err := ctrl.SetControllerReference(memcached, dep, r.Scheme); err != nil { // want `ctrl\.SetControllerReference sets blockOwnerDeletion on its reference to a Memcached, and no \+kubebuilder:rbac marker grants update on memcacheds/finalizers\.example\.com\.testproject\.org: a cluster that enforces OwnerReferencesPermissionEnforcement \(OpenShift does\) refuses to create or update the object with that reference; add // \+kubebuilder:rbac:groups=example\.com\.testproject\.org,resources=memcacheds/finalizers,verbs=update`
		return nil, err
	}
	return dep, nil
}

// SetupWithManager watches Memcacheds and the Deployments they own.
func (r *MemcachedReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&cachev1alpha1.Memcached{}).
		Owns(&appsv1.Deployment{}).
		Named("memcached").
		Complete(r)
}
