package forget

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Workers that re-queue every error with AddRateLimited and never ask
// NumRequeues when to give up. That is k8s.io/sample-controller's own
// processNextWorkItem, and most of kubernetes' pkg/controller workers: it
// is right as long as the errors can heal. Their syncs treat a NotFound of
// the object the key names as done (sample-controller's syncHandler:
// `if errors.IsNotFound(err) { ...; return nil }`). A sync that returns
// that NotFound instead retries a deleted object forever.

type SecretController struct {
	queue        workqueue.TypedRateLimitingInterface[cache.ObjectName]
	secretLister corelisters.SecretLister
	client       kubernetes.Interface
	syncHandler  func(ctx context.Context, ref cache.ObjectName) error
}

// processNextWorkItem is sample-controller's worker (controller.go,
// processNextWorkItem): Forget on success, AddRateLimited on every error.
func (c *SecretController) processNextWorkItem(ctx context.Context) bool {
	ref, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(ref)
	err := c.syncSecret(ctx, ref)
	if err == nil {
		c.queue.Forget(ref)
		return true
	}
	utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; requeuing for later retry", "objectReference", ref)
	c.queue.AddRateLimited(ref) // want `ref from c.queue.Get\(\) is re-queued with AddRateLimited on every error, with no NumRequeues limit, and syncSecret returns the NotFound error of its read of the object the key names \(line \d+\): once the object is deleted the key is retried forever`
	return true
}

// syncSecret is sample-controller's syncHandler without its NotFound
// branch: the lister's error goes back to the worker as it is.
func (c *SecretController) syncSecret(ctx context.Context, ref cache.ObjectName) error {
	secret, err := c.secretLister.Secrets(ref.Namespace).Get(ref.Name)
	if err != nil {
		return fmt.Errorf("getting secret %s: %w", ref, err)
	}
	_, err = c.client.CoreV1().Secrets(secret.Namespace).Update(ctx, secret.DeepCopy(), metav1.UpdateOptions{})
	return err
}

type PodController struct {
	queue       workqueue.TypedRateLimitingInterface[string]
	podLister   corelisters.PodLister
	client      kubernetes.Interface
	syncHandler func(ctx context.Context, key string) error
}

func NewPodController(q workqueue.TypedRateLimitingInterface[string]) *PodController {
	c := &PodController{queue: q}
	c.syncHandler = c.syncPod
	return c
}

// processNextWorkItem hands the key to a syncHandler field and an
// error handler, as kubernetes' workers do (pkg/controller/deployment,
// processNextWorkItem and handleErr), but handleErr has no NumRequeues
// limit and the sync reads the Pod through the API server and returns its
// NotFound.
func (c *PodController) processNextWorkItem(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	err := c.syncHandler(ctx, key)
	c.handleErr(ctx, err, key)
	return true
}

func (c *PodController) handleErr(ctx context.Context, err error, key string) { // want handleErr:`forget\(#3 always \[Forget,AddRateLimited\]\)`
	if err == nil {
		c.queue.Forget(key)
		return
	}
	utilruntime.HandleErrorWithContext(ctx, err, "Error syncing pod", "key", key)
	c.queue.AddRateLimited(key) // want `key from c.queue.Get\(\) is re-queued with AddRateLimited on every error, with no NumRequeues limit, and relabel returns the NotFound error`
}

func (c *PodController) syncPod(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	return c.relabel(ctx, ns, name)
}

func (c *PodController) relabel(ctx context.Context, ns, name string) error {
	pod, err := c.client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	pod.Labels["synced"] = "true"
	_, err = c.client.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

// Right shapes: silent.

type ConfigMapController struct {
	queue    workqueue.TypedRateLimitingInterface[string]
	cmLister corelisters.ConfigMapLister
}

// processNextWorkItem is sample-controller's worker, and syncConfigMap
// its syncHandler: a NotFound means the object is gone, done.
func (c *ConfigMapController) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.syncConfigMap(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *ConfigMapController) syncConfigMap(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cm, err := c.cmLister.ConfigMaps(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil // deleted: nothing left to do
	}
	if err != nil {
		return err
	}
	_ = cm
	return nil
}

// limitedWorker is kubernetes' handleErr (pkg/controller/endpoint,
// handleErr): a NotFound returned by the sync is retried maxRetries times,
// then given up on and forgotten.
func (c *ConfigMapController) limitedWorker(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	err := c.rawSync(key)
	if err == nil {
		c.queue.Forget(key)
		return true
	}
	if c.queue.NumRequeues(key) < maxRetries {
		c.queue.AddRateLimited(key)
		return true
	}
	utilruntime.HandleError(err)
	c.queue.Forget(key)
	return true
}

func (c *ConfigMapController) rawSync(key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	_, err = c.cmLister.ConfigMaps(ns).Get(name)
	return err
}

// workerChecksNotFound leaves the sync's NotFound to the worker, which
// forgets the key on it.
func (c *ConfigMapController) workerChecksNotFound(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	err := c.rawSync(key)
	switch {
	case err == nil, apierrors.IsNotFound(err):
		c.queue.Forget(key)
	default:
		c.queue.AddRateLimited(key)
	}
	return true
}

// otherObject returns the NotFound of another object than the one the key
// names (a Secret the ConfigMap points at): it may appear, the retry can
// heal.
func (c *ConfigMapController) otherObject(ctx context.Context, secrets corelisters.SecretLister) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.syncReferenced(key, secrets); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *ConfigMapController) syncReferenced(key string, secrets corelisters.SecretLister) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cm, err := c.cmLister.ConfigMaps(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = secrets.Secrets(ns).Get(cm.Data["secret"])
	return err
}

var _ = corev1.Secret{}
