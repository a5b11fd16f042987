// Package partialwait holds controllers whose cache-sync wait leaves out
// some of the informers they set up.
package partialwait

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	discoveryinformers "k8s.io/client-go/informers/discovery/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// SliceController is kubernetes' EndpointSlice controller as of v1.17.11
// (pkg/controller/endpointslice/endpointslice_controller.go): NewController
// keeps a synced check for each of its four informers, Run waits for two
// (PR 94086, "wait for all informers", fixed it in v1.17.12 and v1.18.9).
type SliceController struct {
	queue workqueue.TypedRateLimitingInterface[string]

	serviceLister        corelisters.ServiceLister
	servicesSynced       cache.InformerSynced
	podLister            corelisters.PodLister
	podsSynced           cache.InformerSynced
	nodeLister           corelisters.NodeLister
	nodesSynced          cache.InformerSynced
	endpointSliceLister  discoverylisters.EndpointSliceLister
	endpointSlicesSynced cache.InformerSynced
}

func NewSliceController(pods coreinformers.PodInformer, services coreinformers.ServiceInformer, nodes coreinformers.NodeInformer, slices discoveryinformers.EndpointSliceInformer) *SliceController {
	c := &SliceController{
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	c.serviceLister = services.Lister()
	c.servicesSynced = services.Informer().HasSynced
	c.podLister = pods.Lister()
	c.podsSynced = pods.Informer().HasSynced
	c.nodeLister = nodes.Lister()
	c.nodesSynced = nodes.Informer().HasSynced
	c.endpointSliceLister = slices.Lister()
	c.endpointSlicesSynced = slices.Informer().HasSynced
	return c
}

func (c *SliceController) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	if !cache.WaitForNamedCacheSync("endpoint_slice", ctx.Done(), c.podsSynced, c.servicesSynced) { // want `this cache-sync wait covers podsSynced, servicesSynced but not nodesSynced, endpointSlicesSynced, which the controller also sets up: the workers started after it read those caches while they are still filling`
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, c.worker, time.Second)
	}
	<-ctx.Done()
}

func (c *SliceController) worker(ctx context.Context) {
	for c.processNext(ctx) {
	}
}

func (c *SliceController) processNext(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	_ = c.sync(key)
	c.queue.Forget(key)
	return true
}

func (c *SliceController) sync(key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	if _, err := c.serviceLister.Services(ns).Get(name); err != nil {
		return err
	}
	slices, err := c.endpointSliceLister.EndpointSlices(ns).List(labels.Everything())
	if err != nil {
		return err
	}
	nodes, err := c.nodeLister.List(labels.Everything())
	if err != nil {
		return err
	}
	_, _ = slices, nodes
	var _ []*discoveryv1.EndpointSlice = slices
	var _ []*corev1.Node = nodes
	return nil
}

// FixedSliceController waits for all of them (v1.17.12). Silent.
type FixedSliceController struct {
	servicesSynced cache.InformerSynced
	podsSynced     cache.InformerSynced
	nodesSynced    cache.InformerSynced
}

func NewFixedSliceController(pods coreinformers.PodInformer, services coreinformers.ServiceInformer, nodes coreinformers.NodeInformer) *FixedSliceController {
	return &FixedSliceController{
		servicesSynced: services.Informer().HasSynced,
		podsSynced:     pods.Informer().HasSynced,
		nodesSynced:    nodes.Informer().HasSynced,
	}
}

func (c *FixedSliceController) Run(ctx context.Context) bool {
	return cache.WaitForNamedCacheSync("endpoint_slice", ctx.Done(), c.podsSynced, c.servicesSynced, c.nodesSynced)
}

// EvacuationController is kubevirt's evacuation controller as of
// v1.2.0-rc.0 (pkg/virt-controller/watch/drain/evacuation): it keeps the
// informers themselves, waits for two, and its workers read the node
// informer's store (PR 11142 added the other two to the wait).
type EvacuationController struct {
	queue             workqueue.TypedRateLimitingInterface[string]
	podInformer       cache.SharedIndexInformer
	migrationInformer cache.SharedIndexInformer
	nodeInformer      cache.SharedIndexInformer
	unusedInformer    cache.SharedIndexInformer
}

func NewEvacuationController(pods, migrations, nodes, unused cache.SharedIndexInformer) *EvacuationController {
	return &EvacuationController{
		queue:             workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		podInformer:       pods,
		migrationInformer: migrations,
		nodeInformer:      nodes,
		unusedInformer:    unused,
	}
}

func (c *EvacuationController) Run(threadiness int, stopCh <-chan struct{}) {
	defer c.queue.ShutDown()
	cache.WaitForCacheSync(stopCh, c.migrationInformer.HasSynced, c.podInformer.HasSynced) // want `this cache-sync wait covers migrationInformer, podInformer but not nodeInformer`
	for range threadiness {
		go wait.Until(c.runWorker, time.Second, stopCh)
	}
	<-stopCh
}

func (c *EvacuationController) runWorker() {
	for c.execute() {
	}
}

func (c *EvacuationController) execute() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	obj, exists, err := c.nodeInformer.GetStore().GetByKey(key)
	if err != nil || !exists {
		return true
	}
	_ = obj
	pods, _ := c.podInformer.GetIndexer().ByIndex("node", key)
	_ = pods
	return true
}

// TwoWaits checks its informers in two steps, the second one in a
// helper of its own. Silent.
type TwoWaits struct {
	queue        workqueue.TypedRateLimitingInterface[string]
	pods         coreinformers.PodInformer
	podsSynced   cache.InformerSynced
	nodesSynced  cache.InformerSynced
	optionalSync cache.InformerSynced
}

func (c *TwoWaits) Run(ctx context.Context) {
	if !cache.WaitForCacheSync(ctx.Done(), c.podsSynced, c.pods.Informer().HasSynced) {
		return
	}
	if !c.waitNodes(ctx) {
		return
	}
	go wait.UntilWithContext(ctx, func(context.Context) {}, time.Second)
}

func (c *TwoWaits) waitNodes(ctx context.Context) bool {
	synced := []cache.InformerSynced{c.nodesSynced}
	if c.optionalSync != nil {
		synced = append(synced, c.optionalSync)
	}
	return cache.WaitForCacheSync(ctx.Done(), synced...)
}

// Publisher is kubernetes' rootcacertpublisher (v1.31 to v1.37): it keeps
// nsListerSynced but no namespace lister; the namespace informer only
// feeds its event handlers, and the workers read ConfigMaps only. Silent.
type Publisher struct {
	cmLister       corelisters.ConfigMapLister
	cmListerSynced cache.InformerSynced
	nsListerSynced cache.InformerSynced
}

func NewPublisher(cms coreinformers.ConfigMapInformer, nss coreinformers.NamespaceInformer) *Publisher {
	p := &Publisher{}
	p.cmLister = cms.Lister()
	p.cmListerSynced = cms.Informer().HasSynced
	p.nsListerSynced = nss.Informer().HasSynced
	return p
}

func (p *Publisher) Run(ctx context.Context) {
	if !cache.WaitForNamedCacheSync("crt configmap", ctx.Done(), p.cmListerSynced) {
		return
	}
	_, _ = p.cmLister.ConfigMaps("kube-system").Get("kube-root-ca.crt")
}

// BundlePublisher is kubernetes' clustertrustbundlepublisher: it keeps
// the informer and its HasSynced as a field of its own, and waits for
// that. Silent.
type BundlePublisher struct {
	ctbInformer     cache.SharedIndexInformer
	ctbListerSynced cache.InformerSynced
}

func NewBundlePublisher(ctbInformer cache.SharedIndexInformer) *BundlePublisher {
	return &BundlePublisher{
		ctbInformer:     ctbInformer,
		ctbListerSynced: ctbInformer.HasSynced,
	}
}

func (p *BundlePublisher) Run(ctx context.Context) {
	if !cache.WaitForNamedCacheSync("bundle", ctx.Done(), p.ctbListerSynced) {
		return
	}
	_ = p.ctbInformer.GetStore().List()
}
