// Package forget holds forget's fixtures on client-go v0.17: the untyped
// rate-limiting queue of that release, and typed clients without a context
// (Get(name, opts)).
package forget

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// PodController's worker is shaped on kubernetes' workers of v1.17
// (pkg/controller/deployment: processNextWorkItem hands the key to
// syncHandler and handleErr), with a handleErr that has no NumRequeues
// limit, and a sync that reads the Pod through the API server and returns
// its NotFound: once the Pod is deleted the key is retried for ever.
type PodController struct {
	queue  workqueue.RateLimitingInterface
	client kubernetes.Interface
}

func (c *PodController) processNextWorkItem() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	err := c.syncPod(key.(string))
	c.handleErr(err, key)
	return true
}

func (c *PodController) handleErr(err error, key interface{}) { // want handleErr:`forget\(#2 always \[Forget,AddRateLimited\]\)`
	if err == nil {
		c.queue.Forget(key)
		return
	}
	utilruntime.HandleError(fmt.Errorf("error syncing pod %v: %v", key, err))
	c.queue.AddRateLimited(key) // want `key from c.queue.Get\(\) is re-queued with AddRateLimited on every error, with no NumRequeues limit, and syncPod returns the NotFound error`
}

func (c *PodController) syncPod(key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	pod, err := c.client.CoreV1().Pods(ns).Get(name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	pod.Labels["synced"] = "true"
	_, err = c.client.CoreV1().Pods(ns).Update(pod)
	return err
}

// NodeController's sync is the right shape: a NotFound means the object
// is gone, and the key is done.
type NodeController struct {
	queue  workqueue.RateLimitingInterface
	client kubernetes.Interface
}

func (c *NodeController) processNextWorkItem() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.syncNode(key.(string)); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *NodeController) syncNode(name string) error {
	node, err := c.client.CoreV1().Nodes().Get(name, metav1.GetOptions{})
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	_ = node
	return nil
}
