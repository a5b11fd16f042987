package clientperreconcile

import (
	"context"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PolicyReconciler builds a dynamic client from its own config on every
// reconcile that has templates to sync: shaped on open-cluster-management's
// governance-policy-framework-addon (v0.19.0,
// controllers/templatesync/template_sync.go:151, (*PolicyReconciler).Reconcile,
// "initialize dynamic client"; r.Config is the managed cluster manager's
// GetConfig(), set in main.go).
type PolicyReconciler struct {
	client.Client
	Config    *rest.Config
	Clientset kubernetes.Interface
}

func (r *PolicyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var dClient dynamic.Interface
	if len(cm.Data) > 0 {
		var err error
		dClient, err = dynamic.NewForConfig(r.Config) // want `dynamic.NewForConfig in \(\*PolicyReconciler\).Reconcile builds a new client on every reconcile from the controller's own config: each one opens its own connections and has its own rate limiter`
		if err != nil {
			return ctrl.Result{}, err
		}
	}
	_ = dClient
	// The clientset built at start-up is the right one: silent.
	_, err := r.Clientset.CoreV1().Namespaces().Get(ctx, req.Namespace, metav1.GetOptions{})
	return ctrl.Result{}, err
}

// ExecReconciler runs a command in a pod through a clientset a helper
// builds each time: shaped on operators that exec into pods from
// Reconcile (an AlertEvent reconciler's "targetPod" action, a
// ContainerDiagnostic reconciler's ExecInContainer), which call
// kubernetes.NewForConfig(r.RestConfig) per exec.
type ExecReconciler struct {
	client.Client
	RestConfig *rest.Config
}

func (r *ExecReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.execInPod(ctx, &pod, []string{"true"})
}

func (r *ExecReconciler) execInPod(ctx context.Context, pod *corev1.Pod, cmd []string) error {
	cs, err := kubernetes.NewForConfig(r.RestConfig) // want `kubernetes.NewForConfig in \(\*ExecReconciler\).Reconcile → \(\*ExecReconciler\).execInPod builds a new client on every reconcile`
	if err != nil {
		return err
	}
	req := cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(pod.Namespace).Name(pod.Name).SubResource("exec")
	_ = req
	_ = cmd
	return nil
}

// PayloadReconciler stores fresh clients in its fields on every reconcile,
// with no check that they are already there: shaped on kube-vip's
// kube-vip-multi-cluster, internal/controller, (*MultiClusterReconciler).Reconcile
// ("Create clients for the payload": r.dynClient, err =
// dynamic.NewForConfig(r.Config), then the discovery client likewise).
type PayloadReconciler struct {
	client.Client
	Config     *rest.Config
	dynClient  dynamic.Interface
	discClient discovery.DiscoveryInterface
}

func (r *PayloadReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var err error
	r.dynClient, err = dynamic.NewForConfig(r.Config) // want `dynamic.NewForConfig in \(\*PayloadReconciler\).Reconcile builds a new client`
	if err != nil {
		return ctrl.Result{}, err
	}
	r.discClient, err = discovery.NewDiscoveryClientForConfig(r.Config) // want `discovery.NewDiscoveryClientForConfig in \(\*PayloadReconciler\).Reconcile builds a new client`
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// UncachedReconciler builds a controller-runtime client (no cache) from the
// process's config on every reconcile, to read around the cache; the
// manager's GetAPIReader is that reader, built once.
type UncachedReconciler struct {
	client.Client
}

func (r *UncachedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	direct, err := client.New(ctrl.GetConfigOrDie(), client.Options{Scheme: r.Scheme()}) // want `client.New in \(\*UncachedReconciler\).Reconcile builds a new client on every reconcile`
	if err != nil {
		return ctrl.Result{}, err
	}
	var cm corev1.ConfigMap
	return ctrl.Result{}, client.IgnoreNotFound(direct.Get(ctx, req.NamespacedName, &cm))
}

// ThrottledReconciler copies its config to raise the QPS, then builds a
// clientset from the copy: still its own cluster and user, built per
// reconcile.
type ThrottledReconciler struct {
	client.Client
	cfg *rest.Config
}

func (r *ThrottledReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	c := rest.CopyConfig(r.cfg)
	c.QPS = 50
	cs, err := kubernetes.NewForConfig(c) // want `kubernetes.NewForConfig in \(\*ThrottledReconciler\).Reconcile builds a new client`
	if err != nil {
		return ctrl.Result{}, err
	}
	_, err = cs.CoreV1().Namespaces().Get(ctx, req.Namespace, metav1.GetOptions{})
	return ctrl.Result{}, err
}

// SetupReconciler builds its clientset once in SetupWithManager: off the
// path, silent. Shaped on controllers that keep mgr.GetConfig()'s clientset
// in a field (an Ingress reconciler's SetupWithManager).
type SetupReconciler struct {
	client.Client
	Config    *rest.Config
	Clientset kubernetes.Interface
}

func (r *SetupReconciler) SetupWithManager(mgr ctrl.Manager) (err error) {
	r.Config = mgr.GetConfig()
	if r.Clientset, err = kubernetes.NewForConfig(r.Config); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(r)
}

func (r *SetupReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_, err := r.Clientset.CoreV1().Namespaces().Get(ctx, req.Namespace, metav1.GetOptions{})
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

// LazyReconciler builds its clientset on first use, under a lock and a nil
// check, and keeps it: silent. Shaped on the Aerospike CE operator's
// (*AerospikeCEClusterReconciler).getOrCreateKubeClientset (the clientset
// for exec, built lazily under a mutex so that a failed first attempt is
// retried; an earlier version used a sync.Once, OnceReconciler below).
type LazyReconciler struct {
	client.Client
	RestConfig    *rest.Config
	mu            sync.Mutex
	KubeClientset kubernetes.Interface
}

func (r *LazyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cs, err := r.getOrCreateKubeClientset()
	if err != nil {
		return ctrl.Result{}, err
	}
	_, err = cs.CoreV1().Namespaces().Get(ctx, req.Namespace, metav1.GetOptions{})
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

func (r *LazyReconciler) getOrCreateKubeClientset() (kubernetes.Interface, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.KubeClientset != nil {
		return r.KubeClientset, nil
	}
	if r.RestConfig == nil {
		return nil, fmt.Errorf("no rest config")
	}
	cs, err := kubernetes.NewForConfig(r.RestConfig)
	if err != nil {
		return nil, err
	}
	r.KubeClientset = cs
	return r.KubeClientset, nil
}

// OnceReconciler builds its dynamic client in a sync.Once: silent.
type OnceReconciler struct {
	client.Client
	cfg     *rest.Config
	once    sync.Once
	dyn     dynamic.Interface
	dynErr  error
	getDisc func() (*discovery.DiscoveryClient, error)
}

func (r *OnceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	r.once.Do(func() {
		r.dyn, r.dynErr = dynamic.NewForConfig(r.cfg)
	})
	if r.dynErr != nil {
		return ctrl.Result{}, r.dynErr
	}
	getDisc := sync.OnceValues(func() (*discovery.DiscoveryClient, error) {
		return discovery.NewDiscoveryClientForConfig(r.cfg)
	})
	_ = getDisc
	return ctrl.Result{}, nil
}
