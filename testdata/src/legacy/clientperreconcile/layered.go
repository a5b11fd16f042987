package clientperreconcile

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// LayeredReconciler is LazyReconciler's shape (the Aerospike CE operator's
// getOrCreateKubeClientset) with the build split into helpers, the
// innermost choosing between two configs: the clientset is still built
// once under the nil check and kept, silent. Its conversion to
// kubernetes.Interface and the φ of the two builds are the same client,
// not a level of the helpers the client is followed back out of.
type LayeredReconciler struct {
	client.Client
	RestConfig    *rest.Config
	Burst         int
	mu            sync.Mutex
	KubeClientset kubernetes.Interface
}

func (r *LayeredReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cs, err := r.getOrCreateKubeClientset()
	if err != nil {
		return ctrl.Result{}, err
	}
	_, err = cs.CoreV1().Namespaces().Get(ctx, req.Namespace, metav1.GetOptions{})
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

func (r *LayeredReconciler) getOrCreateKubeClientset() (kubernetes.Interface, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.KubeClientset != nil {
		return r.KubeClientset, nil
	}
	cs, err := r.build()
	if err != nil {
		return nil, err
	}
	r.KubeClientset = cs
	return cs, nil
}

func (r *LayeredReconciler) build() (kubernetes.Interface, error) {
	return r.buildClientset()
}

func (r *LayeredReconciler) buildClientset() (kubernetes.Interface, error) {
	return r.newClientset()
}

func (r *LayeredReconciler) newClientset() (kubernetes.Interface, error) {
	var cs kubernetes.Interface
	var err error
	if r.Burst > 0 {
		cfg := rest.CopyConfig(r.RestConfig)
		cfg.Burst = r.Burst
		cs, err = kubernetes.NewForConfig(cfg)
	} else {
		cs, err = kubernetes.NewForConfig(r.RestConfig)
	}
	return cs, err
}
