package clientperreconcile

import (
	"context"
	"net/http"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ScaleReconciler scales objects through a clientset built in each
// action: shaped on an event-trigger operator's operate-trigger helper
// (k8sCli, err := kubernetes.NewForConfig(r.Cfg) in the ScaleToZero and
// ScaleUp cases).
type ScaleReconciler struct {
	client.Client
	Cfg        *rest.Config
	httpClient *http.Client
}

func (r *ScaleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.operate(ctx, &pod, pod.Labels["action"])
}

func (r *ScaleReconciler) operate(ctx context.Context, pod *corev1.Pod, action string) error {
	switch action {
	case "scale-to-zero":
		k8sCli, err := kubernetes.NewForConfig(r.Cfg) // want `kubernetes.NewForConfig in \(\*ScaleReconciler\).Reconcile → \(\*ScaleReconciler\).operate builds a new client on every reconcile`
		if err != nil {
			return err
		}
		_ = k8sCli
	case "scale-up":
		// The HTTP client is shared; the rate limiter is new each time.
		k8sCli, err := kubernetes.NewForConfigAndClient(r.Cfg, r.httpClient) // want `kubernetes.NewForConfigAndClient in \(\*ScaleReconciler\).Reconcile → \(\*ScaleReconciler\).operate builds a new client on every reconcile from the controller's own config: each one has its own rate limiter`
		if err != nil {
			return err
		}
		_ = k8sCli
	case "exec":
		// A REST client for the pods' subresources, from a copy of the
		// controller's config: per reconcile.
		cfg := *r.Cfg
		cfg.GroupVersion = &corev1.SchemeGroupVersion
		cfg.APIPath = "/api"
		cfg.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
		rc, err := rest.RESTClientFor(&cfg) // want `rest.RESTClientFor in \(\*ScaleReconciler\).Reconcile → \(\*ScaleReconciler\).operate builds a new client on every reconcile`
		if err != nil {
			return err
		}
		_ = rc
	}
	return nil
}

// ManagedReconciler builds a manager per reconcile from the process's
// config: a client, a cache and informers each time.
type ManagedReconciler struct {
	client.Client
}

func (r *ManagedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{}) // want `ctrl.NewManager in \(\*ManagedReconciler\).Reconcile builds a cache with its own client and informers on every reconcile`
	if err != nil {
		return ctrl.Result{}, err
	}
	_ = mgr
	return ctrl.Result{}, nil
}

// SetupReconciler builds its clientset once from the manager's config:
// silent.
type SetupReconciler struct {
	client.Client
	cs kubernetes.Interface
}

func (r *SetupReconciler) SetupWithManager(mgr ctrl.Manager) error {
	cs, err := kubernetes.NewForConfig(mgr.GetConfig())
	if err != nil {
		return err
	}
	r.cs = cs
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(r)
}

func (r *SetupReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_ = r.cs
	return ctrl.Result{}, nil
}
