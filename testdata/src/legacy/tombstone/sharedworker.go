package tombstone

import (
	"context"

	"example.com/legacy/tombstone/queueutil"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// ServiceControllerConfig and ServiceController are argo-rollouts'
// service controller (v1.10.1, service/service.go: NewController and
// syncService): the delete handler hands the object to an enqueue helper
// of another package, queueutil.Enqueue, which drops a tombstone, and the
// queue's worker is a loop of that package, queueutil.RunWorker, handed
// syncService, which returns on a Service the lister no longer has. A
// deletion has nothing to do here, so dropping its tombstone loses nothing.
type ServiceControllerConfig struct {
	Kubeclientset    kubernetes.Interface
	ServicesInformer coreinformers.ServiceInformer
	ServiceWorkqueue workqueue.RateLimitingInterface
}

type ServiceController struct {
	kubeclientset    kubernetes.Interface
	servicesLister   corelisters.ServiceLister
	serviceWorkqueue workqueue.RateLimitingInterface
}

func NewServiceController(cfg ServiceControllerConfig) *ServiceController {
	controller := &ServiceController{
		kubeclientset:    cfg.Kubeclientset,
		servicesLister:   cfg.ServicesInformer.Lister(),
		serviceWorkqueue: cfg.ServiceWorkqueue,
	}
	cfg.ServicesInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			queueutil.Enqueue(obj, cfg.ServiceWorkqueue)
		},
		UpdateFunc: func(oldObj, newObj any) {
			queueutil.Enqueue(newObj, cfg.ServiceWorkqueue)
		},
		DeleteFunc: func(obj any) {
			queueutil.Enqueue(obj, cfg.ServiceWorkqueue)
		},
	})
	return controller
}

func (c *ServiceController) Run(ctx context.Context) {
	go queueutil.RunWorker(ctx, c.serviceWorkqueue, "service", c.syncService)
	<-ctx.Done()
}

func (c *ServiceController) syncService(ctx context.Context, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	svc, err := c.servicesLister.Services(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = c.kubeclientset.CoreV1().Services(svc.Namespace).Patch(ctx, svc.Name, "application/merge-patch+json", []byte(`{}`), metav1.PatchOptions{})
	return err
}

// DestinationController enqueues the same way, through the rate-limited
// helper of its own method as argo-rollouts' Istio controller does
// (rollout/trafficrouting/istio/controller.go, EnqueueDestinationRule),
// with the queue in a field of its own: not reported either.
type DestinationController struct {
	serviceSyncer
	queue workqueue.RateLimitingInterface
}

func (c *DestinationController) Register(servicesInformer coreinformers.ServiceInformer) {
	servicesInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			c.enqueueService(obj)
		},
	})
}

func (c *DestinationController) enqueueService(obj any) {
	queueutil.EnqueueRateLimited(obj, c.queue)
}

func (c *DestinationController) Run(ctx context.Context) {
	queueutil.RunWorker(ctx, c.queue, "service", c.sync)
}

// serviceSyncer's sync returns on a missing Service, and does nothing
// else.
type serviceSyncer struct {
	servicesLister corelisters.ServiceLister
}

func (s *serviceSyncer) sync(ctx context.Context, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	if _, err := s.servicesLister.Services(namespace).Get(name); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	return nil
}

// ServiceCleanupController is the nearest shape that loses the deletion:
// the same enqueue helper and worker loop, but its sync acts on a missing
// Service (it deletes the Endpoints it made for it), which a dropped
// tombstone never gets to do.
type ServiceCleanupController struct {
	kube           kubernetes.Interface
	servicesLister corelisters.ServiceLister
	queue          workqueue.RateLimitingInterface
}

func (c *ServiceCleanupController) Register(servicesInformer coreinformers.ServiceInformer) {
	servicesInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			queueutil.Enqueue(obj, c.queue) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: queueutil.Enqueue passes the object to metaNamespaceKeyFunc`
		},
	})
}

func (c *ServiceCleanupController) Run(ctx context.Context) {
	queueutil.RunWorker(ctx, c.queue, "service", c.sync)
}

func (c *ServiceCleanupController) sync(ctx context.Context, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	if _, err := c.servicesLister.Services(namespace).Get(name); apierrors.IsNotFound(err) {
		return c.kube.CoreV1().Endpoints(namespace).Delete(ctx, name, metav1.DeleteOptions{})
	}
	return err
}

// RecordedServiceController's sync ignores missing Services, but the
// worker loop it runs remembers every key it syncs: a deletion still
// changes the controller's state.
type RecordedServiceController struct {
	serviceSyncer
	queue workqueue.RateLimitingInterface
}

func (c *RecordedServiceController) Register(servicesInformer coreinformers.ServiceInformer) {
	servicesInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			queueutil.Enqueue(obj, c.queue) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
		},
	})
}

func (c *RecordedServiceController) Run(ctx context.Context) {
	queueutil.RunRecordingWorker(ctx, c.queue, c.sync)
}

// PodKeyController enqueues the keys of deleted Pods on a queue whose sync
// looks them up as Services: a missing Pod is not what it returns on.
type PodKeyController struct {
	servicesLister corelisters.ServiceLister
	kube           kubernetes.Interface
	queue          workqueue.RateLimitingInterface
}

func (c *PodKeyController) Register(podInformer coreinformers.PodInformer) {
	podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			queueutil.Enqueue(obj, c.queue) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
		},
	})
}

func (c *PodKeyController) Run(ctx context.Context) {
	queueutil.RunWorker(ctx, c.queue, "pod", c.sync)
}

func (c *PodKeyController) sync(ctx context.Context, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	if _, err := c.servicesLister.Services(namespace).Get(name); apierrors.IsNotFound(err) {
		return nil
	}
	return c.kube.CoreV1().Services(namespace).Delete(ctx, name, metav1.DeleteOptions{})
}

// CountingServiceController's handler counts what it enqueues through
// queueutil.EnqueueCounted: no plain enqueue helper.
type CountingServiceController struct {
	serviceSyncer
	queue  workqueue.RateLimitingInterface
	counts map[string]int
}

func (c *CountingServiceController) Register(servicesInformer coreinformers.ServiceInformer) {
	servicesInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			queueutil.EnqueueCounted(obj, c.queue, c.counts) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
		},
	})
}

func (c *CountingServiceController) Run(ctx context.Context) {
	queueutil.RunWorker(ctx, c.queue, "service", c.sync)
}
