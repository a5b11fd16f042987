package tombstone

import (
	"context"

	v1 "k8s.io/api/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// controller-runtime's own handlers get an event.DeleteEvent, whose Object
// is always the object (DeleteStateUnknown says whether it is stale):
// silent.
var podDeletes = handler.TypedFuncs[*v1.Pod, reconcile.Request]{
	DeleteFunc: func(ctx context.Context, e event.TypedDeleteEvent[*v1.Pod], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
		q.Add(reconcile.Request{NamespacedName: toolscache.ObjectName{Namespace: e.Object.Namespace, Name: e.Object.Name}.AsNamespacedName()})
	},
}

var untypedDeletes = handler.Funcs{
	DeleteFunc: func(ctx context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
		pod := e.Object.(*v1.Pod)
		q.Add(reconcile.Request{NamespacedName: toolscache.ObjectName{Namespace: pod.Namespace, Name: pod.Name}.AsNamespacedName()})
	},
}

// A client-go handler on a controller-runtime informer still receives
// tombstones: it is a client-go shared informer underneath.
func watchPods(ctx context.Context, c crcache.Cache, q workqueue.TypedRateLimitingInterface[string]) error {
	inf, err := c.GetInformer(ctx, &v1.Pod{})
	if err != nil {
		return err
	}
	_, err = inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*v1.Pod) // want `type assertion to \*v1.Pod panics`
			q.Add(pod.Name)
		},
	})
	return err
}
