package kube

import (
	"go/types"
	"strings"
)

// IsInformer reports whether t is an informer: client-go's shared informers
// (typed and untyped), the generated per-resource informer interfaces, or
// controller-runtime's cache.Informer.
func IsInformer(t types.Type) bool {
	path, name := PathName(t)
	switch path {
	case CachePkg:
		switch name {
		case "SharedInformer", "SharedIndexInformer", "TypedSharedIndexInformer", "Controller":
			return true
		}
		return false
	case CRCachePkg, CRCacheAPIPkg:
		return name == "Informer"
	}
	// Generated informers: k8s.io/client-go/informers/<group>/<version>,
	// and those of generated clientsets for custom resources, which follow
	// the same shape: an interface with Informer() and Lister(), or (v0.37)
	// a named TypedSharedIndexInformer such as PodIndexInformer.
	if strings.HasPrefix(path, InformersPkg) || strings.Contains(path, "/informers/") {
		return HasMethods(t, "Informer", "Lister") || HasMethods(t, "AddEventHandler", "GetIndexer")
	}
	return false
}

// IsLister reports whether t is a lister or cache read interface: generated
// listers (client-go's and those of generated clientsets), their namespace
// listers, cache.GenericLister, and the Indexer/Store behind them.
func IsLister(t types.Type) bool {
	path, name := PathName(t)
	switch path {
	case CachePkg:
		switch name {
		case "GenericLister", "GenericNamespaceLister", "Indexer", "Store", "TypedIndexer", "MutationCache":
			return true
		}
		return false
	}
	if hasPrefixPath(path, listersPfx) || strings.Contains(path, "/listers/") {
		return strings.HasSuffix(name, "Lister") && HasMethods(t, "List")
	}
	return false
}

// IsClientset reports whether t is a typed clientset: kubernetes.Interface,
// *kubernetes.Clientset, or a generated clientset of custom resources
// (package .../clientset/versioned).
func IsClientset(t types.Type) bool {
	path, name := PathName(t)
	if name != "Interface" && name != "Clientset" {
		return false
	}
	return path == KubernetesPkg || strings.HasSuffix(path, "/clientset/versioned")
}

// IsTypedResourceClient reports whether t is a per-resource typed client
// such as corev1.PodInterface (kubernetes/typed/<group>/<version>) or its
// counterpart in a generated clientset.
func IsTypedResourceClient(t types.Type) bool {
	path, name := PathName(t)
	if !strings.HasPrefix(path, typedClientPfx) && !strings.Contains(path, "/clientset/versioned/typed/") {
		return false
	}
	return strings.HasSuffix(name, "Interface") && HasMethods(t, "Get", "List")
}

// Queue describes a client-go workqueue type.
type Queue struct {
	// RateLimited is true for queues with AddRateLimited/Forget.
	RateLimited bool
	// Typed is true for the generic Typed* interfaces; false for the
	// deprecated untyped ones, whose items are interface{}.
	Typed bool
}

var queues = map[string]Queue{
	"Interface":                  {},
	"DelayingInterface":          {},
	"RateLimitingInterface":      {RateLimited: true},
	"TypedInterface":             {Typed: true},
	"TypedDelayingInterface":     {Typed: true},
	"TypedRateLimitingInterface": {Typed: true, RateLimited: true},
	"Type":                       {},
	"Typed":                      {Typed: true},
}

// QueueOf reports whether t is a client-go workqueue (or controller-runtime's
// priority queue, a TypedRateLimitingInterface).
func QueueOf(t types.Type) (Queue, bool) {
	switch path, name := PathName(t); path {
	case WorkqueuePkg:
		q, ok := queues[name]
		return q, ok
	case CRPriorityPkg:
		if name == "PriorityQueue" {
			return Queue{Typed: true, RateLimited: true}, true
		}
	}
	return Queue{}, false
}

// HasMethods reports whether t's method set (or that of *t) has all names.
func HasMethods(t types.Type, names ...string) bool {
	for _, name := range names {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		if _, ok := obj.(*types.Func); !ok {
			return false
		}
	}
	return true
}

// QueueCall recognises a method call on a client-go workqueue: fn is the
// called method and recv the static type of the receiver expression. It
// returns the queue's description and the method name (Get, Done, Forget,
// Add, AddRateLimited, AddAfter, NumRequeues, ShutDown, ...).
func QueueCall(fn *types.Func, recv types.Type) (Queue, string, bool) {
	if fn == nil || recv == nil {
		return Queue{}, "", false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return Queue{}, "", false
	}
	q, ok := QueueOf(recv)
	if !ok {
		return Queue{}, "", false
	}
	return q, fn.Name(), true
}

// IsRateLimitingQueueConstructor reports whether fn builds a rate-limiting
// workqueue from a rate limiter given as its first argument
// (workqueue.NewTypedRateLimitingQueueWithConfig and friends).
func IsRateLimitingQueueConstructor(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != WorkqueuePkg {
		return false
	}
	return strings.HasPrefix(fn.Name(), "New") && strings.Contains(fn.Name(), "RateLimitingQueue")
}

// IsKeyParser reports whether fn splits a work-queue key into its parts
// and fails on a malformed key: cache.SplitMetaNamespaceKey and
// cache.ParseObjectName. It is deterministic, so a key it rejects once it
// always rejects.
func IsKeyParser(fn *types.Func) bool {
	return IsFunc(fn, CachePkg, "SplitMetaNamespaceKey") || IsFunc(fn, CachePkg, "ParseObjectName")
}

// IsInformerFactory reports whether t is a shared informer factory: client-go's
// typed informers.SharedInformerFactory (and the internalinterfaces one its
// generated informers hold), dynamicinformer.DynamicSharedInformerFactory,
// metadatainformer.SharedInformerFactory, the factories of generated
// clientsets (informers/externalversions), and look-alikes such as
// kube-controller-manager's informerfactory.InformerFactory: a type of an
// informer package that starts informers and hands them out (Start, and
// InformerFor or ForResource).
func IsInformerFactory(t types.Type) bool {
	path, _ := PathName(t)
	if !strings.Contains(path, "informer") {
		return false
	}
	return HasMethods(t, "Start") && (HasMethods(t, "InformerFor") || HasMethods(t, "ForResource"))
}

// TypedArgs returns the arguments of a call of fn, a typed client's method,
// after its context: client-go's typed clients take a context.Context
// first since v0.18 (Update(ctx, obj, opts)) and none before
// (Update(obj)), and code of both ages is still run, so analyzers read
// the arguments at the same indices for both: TypedArgs(fn, args)[0] is
// the object Update sends, the name Get reads.
func TypedArgs[T any](fn *types.Func, args []T) []T {
	if len(args) > 0 && TakesContext(fn) {
		return args[1:]
	}
	return args
}

// TakesContext reports whether fn's first parameter is a context.Context.
func TakesContext(fn *types.Func) bool {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Params().Len() == 0 {
		return false
	}
	return Is(sig.Params().At(0).Type(), "context", "Context")
}
