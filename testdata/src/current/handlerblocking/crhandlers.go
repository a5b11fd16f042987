package handlerblocking

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// SecretWatcher is shaped on controller-runtime issue 1628 ("Using
// EnqueueRequestsFromMapFunc with a MapFunc that makes a call..."): a map
// function that lists the custom resources referring to a changed Secret.
// Listed through the manager's client, the read is served from the cache:
// silent. Listed through GetAPIReader, it goes to the API server on the
// source's delivery goroutine (controller-runtime's source.Kind calls the
// handler from the informer's OnAdd/OnUpdate/OnDelete): reported.
type SecretWatcher struct {
	client.Client
	apiReader client.Reader
}

func (r *SecretWatcher) SetupWithManager(mgr ctrl.Manager) error {
	r.apiReader = mgr.GetAPIReader()
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.ConfigMap{}).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.configMapsForSecret)).
		Watches(&corev1.Service{}, handler.EnqueueRequestsFromMapFunc(r.configMapsLive)).
		Watches(&corev1.Pod{}, handler.Funcs{
			UpdateFunc: func(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
				// A write per pod update, on the delivery goroutine.
				pod := e.ObjectNew.(*corev1.Pod).DeepCopy()
				pod.Annotations = map[string]string{"seen": "true"}
				_ = r.Update(ctx, pod) // want `controller-runtime client Update API call in the UpdateFunc of a handler.Funcs: event handlers run on the informer's delivery goroutine`
				q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}})
			},
		}).
		WithEventFilter(predicate.Funcs{
			UpdateFunc: func(e event.UpdateEvent) bool {
				time.Sleep(10 * time.Millisecond) // want `time.Sleep in the UpdateFunc of a predicate.Funcs: event handlers run on the informer's delivery goroutine, so every later event of this handler waits out the delay`
				return true
			},
		}).
		Complete(r)
}

func (r *SecretWatcher) configMapsForSecret(ctx context.Context, o client.Object) []reconcile.Request {
	var cms corev1.ConfigMapList
	if err := r.List(ctx, &cms, client.InNamespace(o.GetNamespace())); err != nil { // the cache: silent
		return nil
	}
	return requests(cms.Items)
}

func (r *SecretWatcher) configMapsLive(ctx context.Context, o client.Object) []reconcile.Request {
	var cms corev1.ConfigMapList
	if err := r.apiReader.List(ctx, &cms, client.InNamespace(o.GetNamespace())); err != nil { // want `List through an uncached reader \(an API call\) in the map function of EnqueueRequestsFromMapFunc \(via r.configMapsLive\)`
		return nil
	}
	return requests(cms.Items)
}

func requests(cms []corev1.ConfigMap) []reconcile.Request {
	var out []reconcile.Request
	for _, cm := range cms {
		out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name}})
	}
	return out
}

func (r *SecretWatcher) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	// The worker: writes here are where they belong. Silent.
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.Update(ctx, &cm)
}

// scaleHandler is an event handler type of the package, in the shape of
// controller-runtime v0.25.2's own enqueueRequestForOwner
// (pkg/handler/enqueue_owner.go: Create, Update, Delete and Generic
// methods that map the event and enqueue); its Update reads a subresource,
// which controller-runtime's cache does not serve, and its Create only
// enqueues (silent). scaleFilter is a predicate type reading the cache
// (silent).
type scaleHandler struct {
	c client.Client
}

func (h *scaleHandler) Create(ctx context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	q.Add(reconcile.Request{NamespacedName: client.ObjectKeyFromObject(e.Object)})
}

func (h *scaleHandler) Update(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	scale := &corev1.ConfigMap{}
	_ = h.c.SubResource("scale").Get(ctx, e.ObjectNew, scale) // want `controller-runtime subresource Get API call in the Update method of the event handler scaleHandler \(via h.Update\)`
}

func (h *scaleHandler) Delete(context.Context, event.DeleteEvent, workqueue.TypedRateLimitingInterface[reconcile.Request]) {
}

func (h *scaleHandler) Generic(context.Context, event.GenericEvent, workqueue.TypedRateLimitingInterface[reconcile.Request]) {
}

type scaleFilter struct {
	predicate.Funcs
	c client.Client
}

func (f scaleFilter) Update(e event.UpdateEvent) bool {
	var cm corev1.ConfigMap
	return f.c.Get(context.TODO(), client.ObjectKeyFromObject(e.ObjectNew), &cm) == nil
}

func setupScale(mgr ctrl.Manager, r reconcile.Reconciler) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.Pod{}).
		Watches(&corev1.ConfigMap{}, &scaleHandler{c: mgr.GetClient()}).
		WithEventFilter(scaleFilter{c: mgr.GetClient()}).
		Complete(r)
}
