// This file holds the marker forms controller-gen reads and the RBAC
// authorizer matches, on a reconciler shaped on kubebuilder's
// project-v4 scaffolds (testdata/project-v4/internal/controller,
// kubernetes-sigs/kubebuilder at 00124f88) that keeps a ServiceAccount,
// its Role and RoleBinding, a lease, an Ingress, a PodDisruptionBudget
// and a HorizontalPodAutoscaler per object: wildcards (cluster-api's
// markers grant verbs=* and resources=*), a core group written "" or
// core, lists in braces, markers limited to a namespace or to resource
// names. The calls they grant are not reported.

package rbacmarkers

import (
	"context"

	authenticationv1 "k8s.io/api/authentication/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=*
// +kubebuilder:rbac:groups=networking.k8s.io,resources=*,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=*,resources=poddisruptionbudgets,verbs=get;list;watch;create;update
// +kubebuilder:rbac:groups={rbac.authorization.k8s.io},resources={roles,rolebindings},verbs={get,list,watch,create,update,patch}
// +kubebuilder:rbac:groups=autoscaling,namespace=system,resources=horizontalpodautoscalers,verbs=get;list;watch;create;update;patch
// +kubebuilder:rbac:groups=core,resources=serviceaccounts,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=core,resources=configmaps,resourceNames=operator-config,verbs=update;patch

// AccessReconciler keeps the objects that give an App access to the API.
type AccessReconciler struct {
	client.Client
}

func (r *AccessReconciler) ensure(ctx context.Context, ns string) error {
	lease := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "access", Namespace: ns}}
	if err := r.Create(ctx, lease); err != nil {
		return err
	}
	if err := r.Update(ctx, lease); err != nil {
		return err
	}
	ing := &networkingv1.Ingress{ObjectMeta: metav1.ObjectMeta{Name: "access", Namespace: ns}}
	if err := r.Create(ctx, ing); err != nil {
		return err
	}
	if err := r.Status().Update(ctx, ing); err != nil {
		return err
	}
	pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "access", Namespace: ns}}
	if err := r.Update(ctx, pdb); err != nil {
		return err
	}
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "access", Namespace: ns}}
	if err := r.Create(ctx, role); err != nil {
		return err
	}
	binding := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "access", Namespace: ns}}
	if err := r.Patch(ctx, binding, client.MergeFrom(binding.DeepCopy())); err != nil {
		return err
	}
	var roles rbacv1.RoleList
	if err := r.List(ctx, &roles, client.InNamespace(ns)); err != nil {
		return err
	}
	hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: "access", Namespace: ns}}
	if err := r.Update(ctx, hpa); err != nil {
		return err
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "operator-config", Namespace: ns}}
	if err := r.Update(ctx, cm); err != nil {
		return err
	}
	// A ServiceAccount is got from the cache and created: granted; its
	// update is not.
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "access", Namespace: ns}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, sa, func() error { // want `controllerutil\.CreateOrUpdate updates a ServiceAccount, and no \+kubebuilder:rbac marker grants update on serviceaccounts: the API server refuses the call under the role controller-gen generates; add // \+kubebuilder:rbac:groups="",resources=serviceaccounts,verbs=update`
		sa.Labels = map[string]string{"app": "access"}
		return nil
	}); err != nil {
		return err
	}
	return nil
}

// create creates whatever it is handed: the analyzer does not know its
// kind.
func (r *AccessReconciler) create(ctx context.Context, obj client.Object) error {
	return r.Create(ctx, obj)
}

// createUnstructured creates an object of a kind known only at run time.
func (r *AccessReconciler) createUnstructured(ctx context.Context, u *unstructured.Unstructured) error {
	return r.Create(ctx, u)
}

// reviewToken creates a TokenReview: cmd/main.go's marker grants it.
func (r *AccessReconciler) reviewToken(ctx context.Context, token string) (bool, error) {
	review := &authenticationv1.TokenReview{Spec: authenticationv1.TokenReviewSpec{Token: token}}
	if err := r.Create(ctx, review); err != nil {
		return false, err
	}
	return review.Status.Authenticated, nil
}
