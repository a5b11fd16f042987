// Package kube declares one variable per client-go and controller-runtime
// API shape that the knowledge package must recognise. The test reads each
// variable's name prefix as the expected verdict.
package kube

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/dynamiclister"
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/listers"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

var (
	informerShared      cache.SharedIndexInformer
	informerTyped       cache.TypedSharedIndexInformer[*corev1.Pod]
	informerPodIndex    coreinformers.PodIndexInformer
	informerPods        coreinformers.PodInformer
	informerTypedPods   coreinformers.TypedPodInformer
	informerCR          crcache.Informer
	listerPods          corelisters.PodLister
	listerPodsNS        corelisters.PodNamespaceLister
	listerIndexer       cache.Indexer
	listerStore         cache.Store
	listerGeneric       cache.GenericLister
	clientsetIface      kubernetes.Interface
	clientsetPtr        *kubernetes.Clientset
	typedClientPods     typedcorev1.PodInterface
	typedClientServices typedcorev1.ServiceInterface
	rateLimitedTyped    workqueue.TypedRateLimitingInterface[string]
	rateLimitedUntyped  workqueue.RateLimitingInterface
	rateLimitedPriority priorityqueue.PriorityQueue[reconcile.Request]
	queueTyped          workqueue.TypedInterface[string]
	queueDelaying       workqueue.TypedDelayingInterface[string]
	queueUntyped        workqueue.Interface
	handlerFuncs        cache.ResourceEventHandlerFuncs
	handlerDetailed     cache.ResourceEventHandlerDetailedFuncs
	handlerFiltering    cache.FilteringResourceEventHandler
	handlerTyped        cache.TypedResourceEventHandlerFuncs[*corev1.Pod]
	handlerTypedAlias   coreinformers.PodHandlerFuncs
	handlerTypedDetail  cache.TypedResourceEventHandlerDetailedFuncs[*corev1.Pod]
	handlerTypedFilter  coreinformers.PodFilteringHandler
	tombstoneValue      cache.DeletedFinalStateUnknown
	deletedObject       cache.DeletedObject[*corev1.Pod]
	notFactory          informers.SharedInformerFactory
	notPod              *corev1.Pod
	notString           string
	notBackoff          = retry.DefaultRetry
	listerReplicaSets   appslisters.ReplicaSetLister
	listerTypedIndexer  cache.TypedIndexer[*corev1.Pod]
	notResourceIndexer  listers.ResourceIndexer[*corev1.Pod]
	notCRClient         client.Client
	notUnstructured     *unstructured.Unstructured
	notMetaObject       metav1.Object
	notSetCondition     = meta.SetStatusCondition
	notSetLabel         = metav1.SetMetaDataLabel
	notAddFinalizer     = controllerutil.AddFinalizer
	notSetNested        = unstructured.SetNestedField
	notDynamicLister    dynamiclister.Lister
	notDynamicNSLister  dynamiclister.NamespaceLister
)
