package handlerblocking

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// SecretWatcher is shaped on controller-runtime issue 1628: a map function
// listing the resources that refer to a Secret. Through the manager's
// client (the cache): silent; through GetAPIReader: reported. On
// controller-runtime v0.18, whose handler.Funcs take an untyped queue.
type SecretWatcher struct {
	client.Client
	apiReader client.Reader
}

func (r *SecretWatcher) SetupWithManager(mgr ctrl.Manager) error {
	r.apiReader = mgr.GetAPIReader()
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.ConfigMap{}).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
			var cms corev1.ConfigMapList
			_ = r.List(ctx, &cms, client.InNamespace(o.GetNamespace())) // the cache: silent
			var live corev1.ConfigMapList
			_ = r.apiReader.List(ctx, &live, client.InNamespace(o.GetNamespace())) // want `List through an uncached reader \(an API call\) in the map function of EnqueueRequestsFromMapFunc`
			return nil
		})).
		WatchesRawSource(source.Kind(mgr.GetCache(), client.Object(&corev1.Pod{}), handler.EventHandler(handler.Funcs{
			DeleteFunc: func(ctx context.Context, e event.DeleteEvent, q workqueue.RateLimitingInterface) {
				cm := &corev1.ConfigMap{}
				cm.Namespace, cm.Name = e.Object.GetNamespace(), "leftovers"
				_ = r.Delete(ctx, cm) // want `controller-runtime client Delete API call in the DeleteFunc of a handler.Funcs`
				q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name}})
			},
		}))).
		WithEventFilter(predicate.NewPredicateFuncs(func(o client.Object) bool {
			var s corev1.Secret
			// A predicate that reads the cache: silent.
			return r.Get(context.TODO(), client.ObjectKeyFromObject(o), &s) == nil
		})).
		Complete(r)
}

func (r *SecretWatcher) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}
