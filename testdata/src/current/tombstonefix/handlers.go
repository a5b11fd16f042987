package tombstonefix

import (
	v1 "k8s.io/api/core/v1"
)

// This file does not import client-go's cache package: the fix adds it.

func (c *Controller) deletePod(obj interface{}) {
	pod, ok := obj.(*v1.Pod) // want `the assertion to \*v1.Pod fails`
	if !ok {
		return
	}
	c.queue.Add(pod.Namespace + "/" + pod.Name)
}

func (c *Controller) deleteNode(obj interface{}) {
	switch node := obj.(type) { // want `this type switch has no case for it`
	case *v1.Node:
		c.queue.Add(node.Name)
	}
}
