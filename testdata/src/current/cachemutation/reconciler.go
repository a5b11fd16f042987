package cachemutation

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	corelisters "k8s.io/client-go/listers/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// ConfigMapReconciler uses controller-runtime's cached client, which
// copies objects out of its cache, and a client-go lister beside it.
type ConfigMapReconciler struct {
	client.Client
	Scheme        *runtime.Scheme
	secretsLister corelisters.SecretLister
}

func (r *ConfigMapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// The cached client's object is a copy: silent.
	controllerutil.AddFinalizer(&cm, "example.com/cleanup")
	cm.Labels["seen"] = "true"
	meta.SetStatusCondition(&[]metav1.Condition{}, metav1.Condition{Type: "Ready"})

	secret, err := r.secretsLister.Secrets(req.Namespace).Get(cm.Name)
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := controllerutil.SetControllerReference(&cm, secret, r.Scheme); err != nil { // want `secret from r\.secretsLister\.Secrets\(req\.Namespace\)\.Get is modified \(controllerutil\.SetControllerReference\(\.\.\.\), and 1 more write\)`
		return ctrl.Result{}, err
	}
	if controllerutil.RemoveFinalizer(secret, "example.com/old") { // the same read: one finding, at the first write
		return ctrl.Result{}, r.Update(ctx, secret)
	}
	return ctrl.Result{}, r.Update(ctx, secret)
}
