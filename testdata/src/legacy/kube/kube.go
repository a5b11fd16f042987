// Package kube declares one variable per client-go API shape of v0.30 that
// the knowledge package must recognise. The test reads each variable's name
// prefix as the expected verdict.
package kube

import (
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

var (
	informerShared     cache.SharedIndexInformer
	informerPods       coreinformers.PodInformer
	listerPods         corelisters.PodLister
	listerIndexer      cache.Indexer
	clientsetIface     kubernetes.Interface
	clientsetPtr       *kubernetes.Clientset
	typedClientPods    typedcorev1.PodInterface
	rateLimitedUntyped workqueue.RateLimitingInterface
	queueUntyped       workqueue.Interface
	handlerFuncs       cache.ResourceEventHandlerFuncs
	handlerDetailed    cache.ResourceEventHandlerDetailedFuncs
	handlerFiltering   cache.FilteringResourceEventHandler
	tombstoneValue     cache.DeletedFinalStateUnknown
	notFactory         informers.SharedInformerFactory
	notString          string
	listerPodsNS       corelisters.PodNamespaceLister
	listerStore        cache.Store
	listerGeneric      cache.GenericLister
	listerReplicaSets  appslisters.ReplicaSetLister
)
