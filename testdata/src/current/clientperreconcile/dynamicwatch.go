package clientperreconcile

import (
	"context"
	"sync"

	apiextensionsv1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// WatchReconciler starts an informer for each new resource type an object
// names, once per type: the map of started informers is checked first and
// records the new one. Shaped on controllers that watch types they learn
// of at run time (HNC's object reconcilers created per type in its config
// reconciler, kubestellar's informers started per new CRD): silent.
type WatchReconciler struct {
	client.Client
	dyn       dynamic.Interface
	mu        sync.Mutex
	informers map[schema.GroupVersionResource]cache.SharedIndexInformer
	stop      chan struct{}
	started   map[schema.GroupVersionResource]bool
	factory   dynamicinformer.DynamicSharedInformerFactory
}

func (r *WatchReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm apiextensionsv1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	gvr := schema.GroupVersionResource{Group: cm.Data["group"], Version: cm.Data["version"], Resource: cm.Data["resource"]}
	r.watch(gvr)
	r.watchShared(gvr)
	return ctrl.Result{}, nil
}

func (r *WatchReconciler) watch(gvr schema.GroupVersionResource) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.informers[gvr]; ok {
		return
	}
	factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(r.dyn, 0, "", nil)
	r.informers[gvr] = factory.ForResource(gvr).Informer()
	factory.Start(r.stop)
}

// watchShared keeps one factory, made when the first type is seen.
func (r *WatchReconciler) watchShared(gvr schema.GroupVersionResource) {
	if _, ok := r.started[gvr]; ok {
		return
	}
	r.factory = dynamicinformer.NewDynamicSharedInformerFactory(r.dyn, 0)
	r.started[gvr] = true
}
