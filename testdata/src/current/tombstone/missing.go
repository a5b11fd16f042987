package tombstone

import (
	"context"
	"fmt"
	"log"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// ExpandController is kubernetes' volume expand controller in miniature:
// the delete handler only enqueues the claim's key, and the sync returns on
// a claim the lister no longer has. A deletion has nothing to do here, so
// dropping its tombstone loses nothing.
type ExpandController struct {
	queue       workqueue.TypedRateLimitingInterface[string]
	pvcLister   corelisters.PersistentVolumeClaimLister
	kubeClient  kubernetes.Interface
	syncHandler func(ctx context.Context, key string) error
}

func NewExpandController(pvcInformer coreinformers.PersistentVolumeClaimInformer, client kubernetes.Interface) *ExpandController {
	c := &ExpandController{
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		pvcLister:  pvcInformer.Lister(),
		kubeClient: client,
	}
	c.syncHandler = c.syncClaim
	pvcInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueuePVC,
		DeleteFunc: c.enqueuePVC,
	})
	return c
}

func (c *ExpandController) enqueuePVC(obj interface{}) {
	pvc, ok := obj.(*v1.PersistentVolumeClaim)
	if !ok {
		return
	}
	if pvc.Status.Phase == v1.ClaimBound {
		key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(pvc)
		if err != nil {
			utilruntime.HandleError(fmt.Errorf("couldn't get key for object %#v: %v", pvc, err))
			return
		}
		klog.V(5).InfoS("Enqueuing claim", "claim", klog.KRef(pvc.GetNamespace(), pvc.GetName()))
		c.queue.Add(key)
	}
}

func (c *ExpandController) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)

	err := c.syncHandler(ctx, key)
	if err == nil {
		c.queue.Forget(key)
		return true
	}
	utilruntime.HandleError(fmt.Errorf("%v failed with: %v", key, err))
	c.queue.AddRateLimited(key)
	return true
}

func (c *ExpandController) syncClaim(ctx context.Context, key string) error {
	start := time.Now()
	logger := klog.FromContext(ctx)
	defer func() {
		logger.V(4).Info("Finished syncing claim", "key", key, "duration", time.Since(start))
	}()
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	pvc, err := c.pvcLister.PersistentVolumeClaims(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		logger.V(4).Info("Claim has been deleted", "key", key)
		return nil
	}
	if err != nil {
		return err
	}
	pvc = pvc.DeepCopy()
	pvc.Annotations["example.com/resizer"] = "in-tree"
	_, err = c.kubeClient.CoreV1().PersistentVolumeClaims(namespace).Update(ctx, pvc, metav1.UpdateOptions{})
	return err
}

// CleanupController enqueues the same way, but its sync acts on a missing
// object: it releases what the claim held. A dropped deletion leaks that.
type CleanupController struct {
	queue     workqueue.TypedRateLimitingInterface[string]
	pvcLister corelisters.PersistentVolumeClaimLister
	kube      kubernetes.Interface
}

func (c *CleanupController) Register(pvcInformer coreinformers.PersistentVolumeClaimInformer) {
	pvcInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.enqueue,
	})
}

func (c *CleanupController) enqueue(obj interface{}) {
	pvc, ok := obj.(*v1.PersistentVolumeClaim) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
	if !ok {
		return
	}
	key, err := cache.MetaNamespaceKeyFunc(pvc)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

func (c *CleanupController) worker(ctx context.Context) {
	for c.processNext(ctx) {
	}
}

func (c *CleanupController) processNext(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *CleanupController) sync(ctx context.Context, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	_, err = c.pvcLister.PersistentVolumeClaims(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		// The claim is gone: release the snapshot kept for it.
		c.releaseSnapshot(ctx, namespace, name)
		return nil
	}
	return err
}

func (c *CleanupController) releaseSnapshot(ctx context.Context, namespace, name string) {
	err := c.kube.CoreV1().ConfigMaps(namespace).Delete(ctx, name+"-snapshot", metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		klog.FromContext(ctx).Error(err, "Releasing snapshot", "claim", klog.KRef(namespace, name))
	}
}

// AuditController's handler does more than enqueue: it records the
// deletion, which a dropped tombstone skips whatever the sync does.
type AuditController struct {
	queue     workqueue.TypedRateLimitingInterface[string]
	pvcLister corelisters.PersistentVolumeClaimLister
	deleted   map[string]time.Time
}

func (c *AuditController) Register(pvcInformer coreinformers.PersistentVolumeClaimInformer) {
	pvcInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pvc, ok := obj.(*v1.PersistentVolumeClaim) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
			if !ok {
				return
			}
			key, _ := cache.MetaNamespaceKeyFunc(pvc)
			c.deleted[key] = time.Now()
			c.queue.Add(key)
		},
	})
}

func (c *AuditController) processNext() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	c.sync(key)
	c.queue.Forget(key)
	return true
}

func (c *AuditController) sync(key string) {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return
	}
	if _, err := c.pvcLister.PersistentVolumeClaims(namespace).Get(name); apierrors.IsNotFound(err) {
		return
	}
}

// ConfigController enqueues the claim's own key, but its sync looks the
// key up as a ConfigMap: a missing claim is not what it returns on, and for
// a deleted claim it deletes the ConfigMap it made.
type ConfigController struct {
	queue    workqueue.TypedRateLimitingInterface[string]
	cmLister corelisters.ConfigMapLister
	kube     kubernetes.Interface
}

func (c *ConfigController) Register(pvcInformer coreinformers.PersistentVolumeClaimInformer) {
	pvcInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			if pvc, ok := obj.(*v1.PersistentVolumeClaim); ok { // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
				key, _ := cache.MetaNamespaceKeyFunc(pvc)
				c.queue.Add(key)
			}
		},
	})
}

func (c *ConfigController) processNext(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	c.queue.Forget(key)
	_ = c.sync(ctx, key)
	return true
}

func (c *ConfigController) sync(ctx context.Context, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	if _, err := c.cmLister.ConfigMaps(namespace).Get(name); apierrors.IsNotFound(err) {
		return nil
	}
	return c.kube.CoreV1().ConfigMaps(namespace).Delete(ctx, name, metav1.DeleteOptions{})
}

// LastSeenController's handler remembers the last claim deleted before it
// enqueues: state a dropped deletion never updates.
type LastSeenController struct {
	queue       workqueue.TypedRateLimitingInterface[string]
	pvcLister   corelisters.PersistentVolumeClaimLister
	lastDeleted string
}

func (c *LastSeenController) Register(pvcInformer coreinformers.PersistentVolumeClaimInformer) {
	pvcInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pvc, ok := obj.(*v1.PersistentVolumeClaim) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
			if !ok {
				return
			}
			key, _ := cache.MetaNamespaceKeyFunc(pvc)
			c.lastDeleted = key
			c.queue.Add(key)
		},
	})
}

func (c *LastSeenController) processNext() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	c.queue.Forget(key)
	c.sync(key)
	return true
}

func (c *LastSeenController) sync(key string) {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return
	}
	if _, err := c.pvcLister.PersistentVolumeClaims(namespace).Get(name); apierrors.IsNotFound(err) {
		return
	}
}

// DegradedController's sync fails on a missing claim, and its worker marks
// the controller degraded on any failure: a deletion does change state.
type DegradedController struct {
	queue     workqueue.TypedRateLimitingInterface[string]
	pvcLister corelisters.PersistentVolumeClaimLister
	degraded  bool
}

func (c *DegradedController) Register(pvcInformer coreinformers.PersistentVolumeClaimInformer) {
	pvcInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.enqueue,
	})
}

func (c *DegradedController) enqueue(obj interface{}) {
	pvc, ok := obj.(*v1.PersistentVolumeClaim) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
	if !ok {
		return
	}
	key, _ := cache.MetaNamespaceKeyFunc(pvc)
	c.queue.Add(key)
}

func (c *DegradedController) processNext() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(key); err != nil {
		c.degraded = true
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *DegradedController) sync(key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	if _, err := c.pvcLister.PersistentVolumeClaims(namespace).Get(name); apierrors.IsNotFound(err) {
		return fmt.Errorf("claim %s is not in the cache", key)
	}
	return nil
}

// ExpectationsController's sync settles its expectations for the key
// before it reads the claim: for a deleted claim that is all it does, and a
// dropped deletion leaves the expectations pending.
type ExpectationsController struct {
	queue        workqueue.TypedRateLimitingInterface[string]
	pvcLister    corelisters.PersistentVolumeClaimLister
	expectations *claimExpectations
}

type claimExpectations struct {
	mu      sync.Mutex
	pending map[string]int
}

func (e *claimExpectations) forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.pending, key)
}

func (c *ExpectationsController) Register(pvcInformer coreinformers.PersistentVolumeClaimInformer) {
	pvcInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.enqueue,
	})
}

func (c *ExpectationsController) enqueue(obj interface{}) {
	pvc, ok := obj.(*v1.PersistentVolumeClaim) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
	if !ok {
		return
	}
	key, _ := cache.MetaNamespaceKeyFunc(pvc)
	c.queue.Add(key)
}

func (c *ExpectationsController) processNext() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *ExpectationsController) sync(key string) error {
	c.expectations.forget(key)
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	if _, err := c.pvcLister.PersistentVolumeClaims(namespace).Get(name); apierrors.IsNotFound(err) {
		return nil
	}
	return nil
}

// StdlogController is ExpandController with the sync's NotFound line
// written through the standard library's log rather than klog, as a
// controller that does not use klog writes it (the shape is kubernetes'
// expand controller, pkg/controller/volume/expand). log only writes what
// it is given (kube.IsLogPkg), so the dropped deletion still loses nothing.
type StdlogController struct {
	queue     workqueue.TypedRateLimitingInterface[string]
	pvcLister corelisters.PersistentVolumeClaimLister
	update    func(pvc *v1.PersistentVolumeClaim) error
}

func (c *StdlogController) Register(pvcInformer coreinformers.PersistentVolumeClaimInformer) {
	pvcInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: c.enqueue,
	})
}

func (c *StdlogController) enqueue(obj interface{}) {
	pvc, ok := obj.(*v1.PersistentVolumeClaim)
	if !ok {
		return
	}
	key, err := cache.MetaNamespaceKeyFunc(pvc)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

func (c *StdlogController) processNext() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *StdlogController) sync(key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	pvc, err := c.pvcLister.PersistentVolumeClaims(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		log.Printf("claim %s has been deleted", key)
		return nil
	}
	if err != nil {
		return err
	}
	return c.update(pvc)
}
