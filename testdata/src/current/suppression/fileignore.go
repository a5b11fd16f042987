//ctrllint:file-ignore tombstone,suppression test doubles that spell directives wrongly on purpose

package suppression

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
)

// A file-ignore of suppression, with a reason, silences its findings in
// the file.
func doubles(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			_ = obj.(*v1.Pod) // ctrllint:ignore tombstone why
		},
	})
}

var silenced = 1 //ctrllint:ignore nosuch why
