// Package kubesync declares the informer factories, informer handles,
// waits and worker launchers that kube's cache-sync knowledge must
// recognise (v0.30 shapes).
package kubesync

import (
	"sync"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/informers/core"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/informers/internalinterfaces"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"
)

var (
	factoryTyped     informers.SharedInformerFactory
	factoryInternal  internalinterfaces.SharedInformerFactory
	factoryDynamic   dynamicinformer.DynamicSharedInformerFactory
	factoryMetadata  metadatainformer.SharedInformerFactory
	accessorGroup    core.Interface
	accessorVersion  coreinformers.Interface
	resourcePods     coreinformers.PodInformer
	otherGeneric     informers.GenericInformer
	otherShared      cache.SharedIndexInformer
	otherClientset   kubernetes.Interface
	launchWaitGroup  sync.WaitGroup
	launchLoopGroup  wait.Group
	notLaunchedMutex sync.Mutex
)

// allSynced is handed sync checks and answers with a bool: a wait helper
// of another package looks like this.
func allSynced(checks ...cache.InformerSynced) bool { return len(checks) == 0 }

// countSynced returns no bool: not a wait.
func countSynced(checks ...cache.InformerSynced) int { return len(checks) }
