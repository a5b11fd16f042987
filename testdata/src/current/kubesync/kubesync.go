// Package kubesync declares the informer factories, informer handles,
// waits and worker launchers that kube's cache-sync knowledge must
// recognise (kube/cachesync_test.go, kube/workers_test.go).
package kubesync

import (
	"context"
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
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"
)

var (
	factoryTyped     informers.SharedInformerFactory
	factoryInternal  internalinterfaces.SharedInformerFactory
	factoryDynamic   dynamicinformer.DynamicSharedInformerFactory
	factoryMetadata  metadatainformer.SharedInformerFactory
	accessorGroup    core.Interface
	accessorVersion  coreinformers.Interface
	resourcePods     coreinformers.PodInformer
	resourceTyped    coreinformers.TypedPodInformer
	otherGeneric     informers.GenericInformer
	otherShared      cache.SharedIndexInformer
	otherPodIndex    coreinformers.PodIndexInformer
	otherClientset   kubernetes.Interface
	otherCRCache     crcache.Cache
	launchWaitGroup  sync.WaitGroup
	launchLoopGroup  wait.Group
	notLaunchedMutex sync.Mutex
)

// allSynced is handed sync checks and answers with a bool: a wait helper
// of another package looks like this.
func allSynced(checks ...cache.InformerSynced) bool { return len(checks) == 0 }

// allDone takes v0.37's DoneCheckers.
func allDone(ctx context.Context, checkers []cache.DoneChecker) bool { return ctx.Err() == nil }

// countSynced returns no bool: not a wait.
func countSynced(checks ...cache.InformerSynced) int { return len(checks) }
