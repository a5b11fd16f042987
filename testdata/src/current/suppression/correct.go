package suppression

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Well-formed directives that suppress a finding: silent. (Directives that
// name a known analyzer but give no reason or suppress nothing are that
// analyzer's to report; see tombstone's fixtures.)
func correct(informer cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*v1.Pod) //ctrllint:ignore tombstone the test informer never re-lists
			q.Add(pod.Name)
		},
	})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			//ctrllint:ignore tombstone	a tab before the reason
			pod := obj.(*v1.Pod)
			q.Add(pod.Name)
		},
	})
}

// Prose about ctrllint: is not a directive, nor is a quoted one:
//
//	pod := obj.(*v1.Pod) //ctrllint:ignore tombstone the reason
//
// ctrllint: the command. // ctrllint: see docs/README.md.
var prose = 1 // CtrlLint:docs are in docs/

// ctrllint:ignore directives need a reason.
var prose2 = 2
