package cg

// #include <stdlib.h>
// static int twice(int x) { return 2 * x; }
import "C"

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
)

// Twice makes the package need cgo.
func Twice(x int) int { return int(C.twice(C.int(x))) }

// A hand-written file that imports "C" is not generated, whatever cmd/cgo's
// rewrite of it says: its findings are reported, here.
func Watch(inf cache.SharedIndexInformer, q chan string) {
	inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*v1.Pod) // want `type assertion to \*v1.Pod panics`
			q <- pod.Name
		},
	})
	inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*v1.Pod) //ctrllint:ignore tombstone the test informer never re-lists
			q <- pod.Name
		},
	})
	inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			n := int(C.twice(C.int(len(q))))
			//ctrllint:ignore tombstone a directive on its own line, after a line cgo rewrote
			pod := obj.(*v1.Pod)
			q <- pod.Name + string(rune(n))
		},
	})
}
