package clientperreconcile

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// RemoteReconciler reaches workload clusters through kubeconfigs kept in
// Secrets: a client per target cluster is its design, not the bug. Shaped
// on cluster-api's early remote.NewClusterClient (a client from the
// <cluster>-kubeconfig Secret in each reconcile), which cluster-api later
// replaced with a cache of clients per cluster (ClusterCacheTracker, then
// ClusterCache): silent, whether cached or not.
type RemoteReconciler struct {
	client.Client
	mu      sync.Mutex
	clients map[types.NamespacedName]kubernetes.Interface
}

func (r *RemoteReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	key := types.NamespacedName{Namespace: req.Namespace, Name: req.Name + "-kubeconfig"}
	if err := r.Get(ctx, key, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cfg, err := clientcmd.RESTConfigFromKubeConfig(secret.Data["value"])
	if err != nil {
		return ctrl.Result{}, err
	}
	remote, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return ctrl.Result{}, err
	}
	_, err = remote.CoreV1().Nodes().Get(ctx, "control-plane", metav1.GetOptions{})
	if err != nil {
		return ctrl.Result{}, err
	}
	cached, err := r.clientFor(req.NamespacedName, r.Config(cfg))
	if err != nil {
		return ctrl.Result{}, err
	}
	_ = cached
	return ctrl.Result{}, nil
}

// Config returns the config it is given, for the look-alike below.
func (r *RemoteReconciler) Config(cfg *rest.Config) *rest.Config { return cfg }

// clientFor keeps one clientset per cluster in a map: a cache of clients.
func (r *RemoteReconciler) clientFor(key types.NamespacedName, cfg *rest.Config) (kubernetes.Interface, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.clients[key]; ok {
		return c, nil
	}
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	r.clients[key] = c
	return c, nil
}

// ImpersonatingReconciler acts as the user an object names: its config is
// the controller's, but for another user each time. Silent.
type ImpersonatingReconciler struct {
	client.Client
	cfg *rest.Config
}

func (r *ImpersonatingReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	c := rest.CopyConfig(r.cfg)
	c.Impersonate.UserName = "system:serviceaccount:" + sa.Namespace + ":" + sa.Name
	as, err := kubernetes.NewForConfig(c)
	if err != nil {
		return ctrl.Result{}, err
	}
	_, err = as.CoreV1().Namespaces().Get(ctx, sa.Namespace, metav1.GetOptions{})
	return ctrl.Result{}, err
}

// ForkReconciler makes a reconciler of its own type for a remote cluster
// on each reconcile and lets it build its client: the value is not the
// controller, its config not the controller's. Silent.
type ForkReconciler struct {
	client.Client
	cfg *rest.Config
}

func (r *ForkReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	remote, err := clientcmd.RESTConfigFromKubeConfig(secret.Data["value"])
	if err != nil {
		return ctrl.Result{}, err
	}
	fork := &ForkReconciler{cfg: remote}
	return ctrl.Result{}, fork.listNodes(ctx)
}

func (r *ForkReconciler) listNodes(ctx context.Context) error {
	cs, err := kubernetes.NewForConfig(r.cfg)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Nodes().Get(ctx, "control-plane", metav1.GetOptions{})
	return err
}
