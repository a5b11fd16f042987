package kube

import (
	"go/types"
)

// CoreV1Pkg holds the core API group's types.
const CoreV1Pkg = "k8s.io/api/core/v1"

// costlyToCache are the kinds whose cluster-wide informer costs the most
// memory in a controller's process: the most numerous objects of a
// cluster (Pods, ConfigMaps), and the largest (Secrets, ConfigMaps: Helm
// keeps one Secret per release revision; a ConfigMap holds up to 1 MiB).
// A controller that reads one of them through a cache pays for all of
// them, and needs the list and watch rights on all of them.
var costlyToCache = map[string]bool{"Secret": true, "ConfigMap": true, "Pod": true}

// IsCostlyToCache reports whether t is one of the core kinds whose
// cluster-wide informer holds the most memory: Secret, ConfigMap, Pod.
func IsCostlyToCache(t types.Type) bool {
	path, name := PathName(t)
	return path == CoreV1Pkg && costlyToCache[name]
}

// A CacheOption is what setting one field of controller-runtime's
// manager, cache or client options does to the objects a manager's cache
// holds.
type CacheOption int

const (
	// OptionInert: nothing about which objects are cached (the scheme,
	// the metrics server, leader election, the resync period).
	OptionInert CacheOption = iota
	// OptionRestricts: may keep objects out of the cache, or shrink
	// them, in a way not followed here (a label, field selector or
	// transform for every kind, a cache or client built by the caller, a
	// reader that fails on kinds without an informer).
	OptionRestricts
	// OptionNamespaces: limits the cache to the namespaces it names,
	// unless empty (cache.Options.DefaultNamespaces; Namespaces in v0.15;
	// manager.Options.Namespace and cache.Options.Namespace before v0.16).
	OptionNamespaces
	// OptionCacheOptions: manager.Options.Cache, a cache.Options (v0.15 and later).
	OptionCacheOptions
	// OptionClientOptions: manager.Options.Client, a client.Options
	// (v0.15 and later).
	OptionClientOptions
	// OptionClientCache: client.Options.Cache, a *client.CacheOptions.
	OptionClientCache
	// OptionByObject: cache.Options.ByObject, a
	// map[client.Object]cache.ByObject of settings per kind.
	OptionByObject
	// OptionDisableFor: client.CacheOptions.DisableFor, and
	// manager.Options.ClientDisableCacheFor before v0.15: kinds the
	// client reads live.
	OptionDisableFor
)

// cacheOptions says, for each options struct of controller-runtime (by
// package and type), what its fields do to the cache; a field not listed
// is OptionInert, except in cache.Options, where an unlisted field
// restricts (a selector or transform field of some version).
var cacheOptions = map[[2]string]map[string]CacheOption{
	{CRManagerPkg, "Options"}: {
		"Cache":                 OptionCacheOptions,
		"Client":                OptionClientOptions,
		"Namespace":             OptionNamespaces,
		"ClientDisableCacheFor": OptionDisableFor,
		"NewCache":              OptionRestricts,
		"NewClient":             OptionRestricts,
		"ClientBuilder":         OptionRestricts,
	},
	{CRCachePkg, "Options"}: {
		"HTTPClient":                   OptionInert,
		"Scheme":                       OptionInert,
		"Mapper":                       OptionInert,
		"SyncPeriod":                   OptionInert,
		"Resync":                       OptionInert,
		"DefaultWatchErrorHandler":     OptionInert,
		"DefaultUnsafeDisableDeepCopy": OptionInert,
		"DefaultEnableWatchBookmarks":  OptionInert,
		"DefaultNamespaces":            OptionNamespaces,
		"Namespaces":                   OptionNamespaces,
		"Namespace":                    OptionNamespaces,
		"ByObject":                     OptionByObject,
	},
	{CRClientPkg, "Options"}: {
		"Cache": OptionClientCache,
	},
	{CRClientPkg, "CacheOptions"}: {
		"Reader":     OptionRestricts,
		"DisableFor": OptionDisableFor,
	},
	{CRCachePkg, "ByObject"}: {
		"Namespaces": OptionRestricts,
		"Label":      OptionRestricts,
		"Field":      OptionRestricts,
		"Transform":  OptionRestricts,
	},
}

// CacheOptionOf says what setting the field named field of the options
// struct st (manager.Options, cache.Options, cache.ByObject,
// client.Options, client.CacheOptions) does to what a manager's cache
// holds; ok is false when st is none of these.
func CacheOptionOf(st types.Type, field string) (opt CacheOption, ok bool) {
	path, name := PathName(st)
	fields, ok := cacheOptions[[2]string{path, name}]
	if !ok {
		return OptionInert, false
	}
	if opt, listed := fields[field]; listed {
		return opt, true
	}
	if path == CRCachePkg && name == "Options" {
		return OptionRestricts, true
	}
	return OptionInert, true
}

// IsByObjectMap reports whether t is cache.Options.ByObject's type,
// map[client.Object]cache.ByObject.
func IsByObjectMap(t types.Type) bool {
	m, ok := types.Unalias(t).Underlying().(*types.Map)
	if !ok || !Is(m.Elem(), CRCachePkg, "ByObject") {
		return false
	}
	// client.Object, an alias of cacheapi.Object since v0.25.
	path, name := PathName(m.Key())
	return name == "Object" && (path == CRClientPkg || path == CRCacheAPIPkg)
}

// IsManagerClient reports whether fn, called on a value of type recv, is
// a manager's GetClient: the client whose reads go through the manager's
// cache. A cluster.Cluster's GetClient (another cluster's cache) is not.
func IsManagerClient(fn *types.Func, recv types.Type) bool {
	return fn != nil && fn.Name() == "GetClient" && fn.Pkg() != nil && fn.Pkg().Path() == CRClusterPkg &&
		Is(recv, CRManagerPkg, "Manager")
}

// IsCRClientRead reports whether fn is a controller-runtime client's Get
// or List, and returns the index of the object argument among the
// arguments after the receiver: Get(ctx, key, obj, ...) and List(ctx,
// list, ...).
func IsCRClientRead(fn *types.Func) (objArg int, ok bool) {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != CRClientPkg {
		return 0, false
	}
	switch fn.Name() {
	case "Get":
		return 2, true
	case "List":
		return 1, true
	}
	return 0, false
}

// IsCacheIndex reports whether fn is a FieldIndexer's IndexField, which
// starts the cache's informer of the object it is given (an index is
// meant to be read from the cache).
func IsCacheIndex(fn *types.Func) bool {
	return fn != nil && fn.Name() == "IndexField" && fn.Pkg() != nil &&
		(fn.Pkg().Path() == CRClientPkg || fn.Pkg().Path() == CRCachePkg)
}

// IsUntypedObject reports whether t (or *t) is an object or list the
// client reads without a Go type of its kind: unstructured.Unstructured,
// metav1.PartialObjectMetadata and their lists. controller-runtime's
// cache keeps their informers apart from the typed ones.
func IsUntypedObject(t types.Type) bool {
	path, name := PathName(t)
	switch path {
	case UnstructuredPkg:
		return name == "Unstructured" || name == "UnstructuredList"
	case MetaV1Pkg:
		return name == "PartialObjectMetadata" || name == "PartialObjectMetadataList"
	}
	return false
}
