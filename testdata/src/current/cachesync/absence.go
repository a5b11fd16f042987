package cachesync

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// NodeObjectGC is shaped like node-feature-discovery's nfd-gc before it
// checked its wait (pkg/nfd-gc/nfd-gc.go, startNodeInformer and
// garbageCollect, fixed upstream in 2024): the factory's WaitForCacheSync
// map is dropped, then a periodic pass lists the nodes from the lister and
// deletes the per-node objects whose node it does not find.
type NodeObjectGC struct {
	client  kubernetes.Interface
	factory informers.SharedInformerFactory
	stop    chan struct{}
}

func (n *NodeObjectGC) Run() error {
	if err := n.startNodeInformer(); err != nil {
		return err
	}
	n.periodicGC(time.Minute) // want `n.garbageCollect, reached through n.periodicGC, deletes or updates what an informer cache read \(line \d+\) does not find, after a cache-sync wait whose result is ignored \(line \d+\): when the wait gives up the caches are partial`
	return nil
}

func (n *NodeObjectGC) startNodeInformer() error {
	n.factory.Core().V1().Nodes().Informer()
	n.factory.Start(n.stop)
	n.factory.WaitForCacheSync(n.stop)
	return nil
}

func (n *NodeObjectGC) periodicGC(period time.Duration) {
	n.garbageCollect()
	ticker := time.NewTicker(period)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
			n.garbageCollect()
		case <-n.stop:
			return
		}
	}
}

func (n *NodeObjectGC) garbageCollect() {
	nodes, err := n.factory.Core().V1().Nodes().Lister().List(labels.Everything())
	if err != nil {
		return
	}
	names := sets.New[string]()
	for _, node := range nodes {
		names.Insert(node.Name)
	}
	cms, err := n.client.CoreV1().ConfigMaps("node-objects").List(context.TODO(), metav1.ListOptions{})
	if err != nil {
		return
	}
	for _, cm := range cms.Items {
		if !names.Has(cm.Labels["node"]) {
			n.deleteConfigMap(cm.Namespace, cm.Name)
		}
	}
}

func (n *NodeObjectGC) deleteConfigMap(namespace, name string) {
	if err := n.client.CoreV1().ConfigMaps(namespace).Delete(context.TODO(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		klog.ErrorS(err, "delete failed", "configmap", klog.KRef(namespace, name))
	}
}

// OrphanPodGC is shaped like kubernetes' pod garbage collector
// (pkg/controller/podgc, gc and gcOrphaned) without the wait its Run has:
// pods whose node is not in the node lister are deleted, from a loop
// started with wait.Until.
type OrphanPodGC struct {
	client      kubernetes.Interface
	podLister   corelisters.PodLister
	nodeLister  corelisters.NodeLister
	nodesSynced cache.InformerSynced
}

func (gc *OrphanPodGC) Run(ctx context.Context) {
	go wait.UntilWithContext(ctx, gc.gc, 20*time.Second) // want `gc.gc, started here, deletes or updates what an informer cache read \(line \d+\) does not find, before the caches have synced: an unsynced lister misses objects that exist`
	<-ctx.Done()
}

func (gc *OrphanPodGC) gc(ctx context.Context) {
	pods, err := gc.podLister.List(labels.Everything())
	if err != nil {
		return
	}
	nodes, err := gc.nodeLister.List(labels.Everything())
	if err != nil {
		return
	}
	gc.gcOrphaned(ctx, pods, nodes)
}

func (gc *OrphanPodGC) gcOrphaned(ctx context.Context, pods []*corev1.Pod, nodes []*corev1.Node) {
	existing := make(map[string]bool, len(nodes))
	for _, node := range nodes {
		existing[node.Name] = true
	}
	for _, pod := range pods {
		if _, ok := existing[pod.Spec.NodeName]; ok || pod.Spec.NodeName == "" {
			continue
		}
		_ = gc.client.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, *metav1.NewDeleteOptions(0))
	}
}

// SyncedPodGC is the same collector with kubernetes' Run: it waits for
// both caches and returns if that fails. Silent.
type SyncedPodGC struct{ OrphanPodGC }

func (gc *SyncedPodGC) Run(ctx context.Context) {
	if !cache.WaitForNamedCacheSyncWithContext(ctx, gc.nodesSynced) {
		return
	}
	go wait.UntilWithContext(ctx, gc.gc, 20*time.Second)
	<-ctx.Done()
}

// CheckedNodeObjectGC checks every value of the factory's map, as nfd-gc
// does since its fix. Silent.
type CheckedNodeObjectGC struct{ NodeObjectGC }

func (n *CheckedNodeObjectGC) Run() error {
	n.factory.Core().V1().Nodes().Informer()
	n.factory.Start(n.stop)
	for typ, ok := range n.factory.WaitForCacheSync(n.stop) {
		if !ok {
			klog.ErrorS(nil, "cache did not sync", "type", typ)
			return nil
		}
	}
	n.periodicGC(time.Minute)
	return nil
}

// LabelSync is shaped like node-feature-discovery's nfd-master at start-up
// (nfdAPIUpdateAllNodes, fixed upstream in 2024): the bool of
// cache.WaitForCacheSync is dropped, then each node whose NodeFeature the
// lister does not find loses its labels.
type LabelSync struct {
	client          kubernetes.Interface
	featureLister   corelisters.ConfigMapLister
	featuresSynced  cache.InformerSynced
	managedLabelKey string
}

func (s *LabelSync) Start(ctx context.Context) error {
	cache.WaitForCacheSync(ctx.Done(), s.featuresSynced)
	nodes, err := s.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for i := range nodes.Items {
		node := &nodes.Items[i]
		_, err := s.featureLister.ConfigMaps("features").Get(node.Name) // want `a delete or update \(line \d+\) is decided by what this informer cache read does not find, after a cache-sync wait whose result is ignored`
		if apierrors.IsNotFound(err) {
			delete(node.Labels, s.managedLabelKey)
			if _, err := s.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// CSRStyleCleaner is shaped like kubernetes' CSR cleaner
// (pkg/controller/certificates/cleaner): with no wait, it deletes objects
// the lister does return, never acting on what it does not find; an
// unsynced cache only delays a deletion. Silent.
type CSRStyleCleaner struct {
	client      kubernetes.Interface
	cmLister    corelisters.ConfigMapLister
	nodesSynced cache.InformerSynced
	keep        sets.Set[string]
}

func (c *CSRStyleCleaner) Run(ctx context.Context) {
	go wait.UntilWithContext(ctx, c.worker, time.Minute)
	<-ctx.Done()
}

func (c *CSRStyleCleaner) worker(ctx context.Context) {
	cms, err := c.cmLister.List(labels.Everything())
	if err != nil {
		return
	}
	for _, cm := range cms {
		if !c.keep.Has(cm.Name) { // a set of the controller's own, not of what was read
			_ = c.client.CoreV1().ConfigMaps(cm.Namespace).Delete(ctx, cm.Name, metav1.DeleteOptions{})
		}
	}
}

// NodeCounter reads the lister with no wait only to log: nothing is
// written. Silent.
type NodeCounter struct {
	nodeLister  corelisters.NodeLister
	nodesSynced cache.InformerSynced
}

func (c *NodeCounter) Run(ctx context.Context) {
	go wait.UntilWithContext(ctx, func(ctx context.Context) {
		nodes, _ := c.nodeLister.List(labels.Everything())
		if len(nodes) == 0 {
			klog.FromContext(ctx).Info("no nodes yet")
		}
	}, time.Minute)
	<-ctx.Done()
}

// ProceedingPodGC waits and, like kubernetes' garbage collector, goes on
// when the wait times out, on purpose: the result is looked at, so the
// wait counts. Silent.
type ProceedingPodGC struct{ OrphanPodGC }

func (gc *ProceedingPodGC) Run(ctx context.Context) {
	if synced := cache.WaitForNamedCacheSyncWithContext(ctx, gc.nodesSynced); !synced {
		klog.FromContext(ctx).Info("caches not synced, collecting anyway")
	}
	go wait.UntilWithContext(ctx, gc.gc, 20*time.Second)
	<-ctx.Done()
}

// SyncPod is an exported sync of a controller type that keeps HasSynced,
// called by another package's worker after that package's wait: it is no
// start-up code (it neither waits nor starts informers) and launches
// nothing, so its read is not followed. Silent.
func (gc *OrphanPodGC) SyncPod(ctx context.Context, namespace, name string) error {
	pod, err := gc.podLister.Pods(namespace).Get(name)
	if err != nil {
		return err
	}
	if _, err := gc.nodeLister.Get(pod.Spec.NodeName); apierrors.IsNotFound(err) {
		return gc.client.CoreV1().Pods(namespace).Delete(ctx, name, metav1.DeleteOptions{})
	}
	return nil
}
