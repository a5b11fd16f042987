//ctrllint:file-ignore tombstone these handlers serve a fake informer in tests, which never re-lists

package tombstone

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

func fakeInformerHandlers(informer cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*v1.Pod) // suppressed by the file-level directive
			q.Add(pod.Name)
		},
	})
}
