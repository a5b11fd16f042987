// Package listerbypassall is checked with -listerbypass.all: every typed
// clientset read on the processing path is reported, cached or not.
package listerbypassall

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/workqueue"
)

type Controller struct {
	client kubernetes.Interface
	queue  workqueue.TypedRateLimitingInterface[string]
}

func (c *Controller) process(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if _, err := c.client.CoreV1().Secrets("default").Get(ctx, key, metav1.GetOptions{}); err != nil { // want `clientset Get of Secret goes to the API server on every event, and the controller has no informer of Secret: add one`
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// Setup runs before processing: still silent with -all.
func Setup(ctx context.Context, client kubernetes.Interface) error { // want Setup:`reads\(List Secret at strict.go:\d+\)`
	_, err := client.CoreV1().Secrets("default").List(ctx, metav1.ListOptions{})
	return err
}
