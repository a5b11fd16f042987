// Command single builds its manager with the kubebuilder scaffold's
// options (no cache options at all) and reads in the same package: each
// read is reported where it is. Shapes: TeraSky-OSS/declarative-conversion-operator
// issue #146 (cmd/manager/main.go builds the manager with no Cache
// options; readCABundle reads the cert-manager Secret through the cached
// client) and Mellanox/network-operator issue #3173 (the reconciler's
// Client is mgr.GetClient(), and it lists Pods no controller watches).
package main

import (
	"context"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Policy is the primary kind.
type Policy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (in *Policy) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

type PolicyReconciler struct {
	Client client.Client
	Live   client.Reader
}

func (r *PolicyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	p := &Policy{}
	if err := r.Client.Get(ctx, req.NamespacedName, p); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, err := runningPods(ctx, r.Client, p.Namespace); err != nil {
		return ctrl.Result{}, err
	}
	if _, err := runningPods(ctx, r.Live, p.Namespace); err != nil { // an uncached reader: silent
		return ctrl.Result{}, err
	}
	ca := &corev1.Secret{}
	if err := r.Client.Get(ctx, types.NamespacedName{Namespace: "cert-manager", Name: "ca"}, ca); err != nil { //ctrllint:ignore cachescope the operator's RBAC grants Secrets in cert-manager's namespace only, which DefaultNamespaces will scope next release
		return ctrl.Result{}, err
	}
	// CreateOrUpdate Gets the Secret through the client first.
	token := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: p.Name + "-token"}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, token, func() error { // want `this CreateOrUpdate of corev1.Secret goes through the manager's cached client`
		token.StringData = map[string]string{"token": p.Name}
		return nil
	}); err != nil {
		return ctrl.Result{}, err
	}
	// Metadata and unstructured reads are cached apart, and only their
	// own informers: not reported.
	meta := &metav1.PartialObjectMetadataList{}
	meta.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("SecretList"))
	if err := r.Client.List(ctx, meta); err != nil {
		return ctrl.Result{}, err
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMap"))
	return ctrl.Result{}, r.Client.Get(ctx, types.NamespacedName{Namespace: p.Namespace, Name: "cfg"}, u)
}

// runningPods lists Pods with the reader it is given.
func runningPods(ctx context.Context, c client.Reader, namespace string) (int, error) {
	pods := &corev1.PodList{}
	if err := c.List(ctx, pods, client.InNamespace(namespace)); err != nil { // want `this List of corev1.Pod goes through the manager's cached client: no controller watches Pods and the cache options do not restrict them, so it starts an informer that holds every Pod of the cluster`
		return 0, err
	}
	n := 0
	for _, p := range pods.Items {
		if p.Status.Phase == corev1.PodRunning {
			n++
		}
	}
	return n, nil
}

func preload(ctx context.Context, mgr manager.Manager) error {
	cms := &corev1.ConfigMapList{}
	return mgr.GetClient().List(ctx, cms, client.MatchingLabels{"preload": "true"}) // want `this List of corev1.ConfigMap goes through the manager's cached client`
}

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		os.Exit(1)
	}
	live, err := client.New(mgr.GetConfig(), client.Options{Scheme: mgr.GetScheme()})
	if err != nil {
		os.Exit(1)
	}
	r := &PolicyReconciler{Client: mgr.GetClient(), Live: live}
	if err := ctrl.NewControllerManagedBy(mgr).For(&Policy{}).Owns(&appsv1.Deployment{}).Complete(r); err != nil {
		os.Exit(1)
	}
	ctx := ctrl.SetupSignalHandler()
	if err := preload(ctx, mgr); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctx); err != nil {
		os.Exit(1)
	}
}
