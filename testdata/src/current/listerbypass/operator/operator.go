// Package operator holds a controller-runtime reconciler that lists pods
// through a kubernetes clientset it keeps beside the manager's client: the
// manager's cache would keep an informer of them.
package operator

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// AppReconciler has the shape of operators that keep a clientset next to
// the embedded manager client (filipweidemann/demo-controller's
// PodReconciler struct) and list the pods of what they reconcile by label
// on every reconcile.
type AppReconciler struct {
	client.Client
	ClientSet kubernetes.Interface
}

func (r *AppReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Complete(r)
}

func (r *AppReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want Reconcile:`reads\(List Pod at operator.go:\d+; List ConfigMap at operator.go:\d+; List Deployment at operator.go:\d+\)`
	var d appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &d); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	pods, err := r.ClientSet.CoreV1().Pods(req.Namespace).List(ctx, metav1.ListOptions{LabelSelector: "app=" + d.Name}) // want `clientset List of Pod goes to the API server on every event, and the controller has no informer of Pod: add one \(read through the manager's client, whose cache starts one for Pod\)`
	if err != nil {
		return ctrl.Result{}, err
	}
	_ = pods
	// The manager's client already reads ConfigMaps here, so its cache
	// has an informer of them: not this report's case. Silent.
	var cm corev1.ConfigMap
	if err := r.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: d.Name}, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, err := r.ClientSet.CoreV1().ConfigMaps(req.Namespace).List(ctx, metav1.ListOptions{}); err != nil {
		return ctrl.Result{}, err
	}
	// Deployments are watched (For): silent too.
	if _, err := r.ClientSet.AppsV1().Deployments(req.Namespace).List(ctx, metav1.ListOptions{}); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
