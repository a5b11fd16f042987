package kube

import (
	"go/types"
	"strings"
)

// Packages whose functions build clients, caches and managers from a
// *rest.Config.
const (
	RestPkg          = "k8s.io/client-go/rest"
	DiscoveryPkg     = "k8s.io/client-go/discovery"
	MetadataPkg      = "k8s.io/client-go/metadata"
	CRClusterPkg     = "sigs.k8s.io/controller-runtime/pkg/cluster"
	CRManagerPkg     = "sigs.k8s.io/controller-runtime/pkg/manager"
	CRConfigPkg      = "sigs.k8s.io/controller-runtime/pkg/client/config"
	ControllerRtPkg  = "sigs.k8s.io/controller-runtime"
	clientsetTypedIn = "/typed/"
)

// A Built says what a client builder returns, and so what building one
// costs.
type Built int

const (
	// BuiltClient is a client with its own HTTP transport (its own
	// connections) and its own client-side rate limiter: clientsets,
	// typed group clients, the dynamic, metadata and discovery clients,
	// REST clients and the HTTP client under them, controller-runtime's
	// client.New.
	BuiltClient Built = iota + 1
	// BuiltInformers is a shared informer factory: its informers list
	// and watch the cluster again when started.
	BuiltInformers
	// BuiltCache is a controller-runtime cache, cluster or manager: a
	// client of its own and informers that list and watch the cluster.
	BuiltCache
)

// ClientBuilder reports whether fn, a package-level function of a library,
// builds a client, an informer factory or a controller-runtime cache from
// the config or client it is given first, and what it builds. Clients are
// recognised by what they return, so generated clientsets (any package's
// NewForConfig returning a clientset or typed group client) are known
// without being listed.
func ClientBuilder(fn *types.Func) (Built, bool) {
	if fn == nil || fn.Pkg() == nil {
		return 0, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() != nil || sig.Results().Len() == 0 || sig.Params().Len() == 0 {
		return 0, false
	}
	path, name := fn.Pkg().Path(), fn.Name()
	switch path {
	case RestPkg:
		switch name {
		case "RESTClientFor", "UnversionedRESTClientFor", "HTTPClientFor":
			return BuiltClient, true
		}
		return 0, false
	case CRClientPkg:
		if name == "New" || name == "NewWithWatch" {
			return BuiltClient, true
		}
		return 0, false
	case CRClusterPkg, CRManagerPkg, CRCachePkg:
		if name == "New" {
			return BuiltCache, true
		}
		return 0, false
	}
	if !strings.HasPrefix(name, "New") {
		return 0, false
	}
	result := sig.Results().At(0).Type()
	if IsInformerFactory(result) {
		return BuiltInformers, true
	}
	if !strings.Contains(name, "ForConfig") {
		return 0, false
	}
	if isConfig(sig.Params().At(0).Type()) && IsBuiltClient(result) {
		return BuiltClient, true
	}
	return 0, false
}

// IsBuiltClient reports whether t is a client built from a config:
// a clientset (client-go's or a generated one: a Clientset or Interface
// with Discovery()), a typed group client (a *Client type of a typed
// package, with RESTClient()), the dynamic or metadata client, or a
// discovery client.
func IsBuiltClient(t types.Type) bool {
	path, name := PathName(t)
	switch path {
	case DynamicPkg, MetadataPkg:
		return true
	case DiscoveryPkg:
		return strings.Contains(name, "DiscoveryClient") || name == "DiscoveryInterface"
	}
	if IsClientset(t) {
		return true
	}
	if (name == "Clientset" || name == "Interface") && HasMethods(t, "Discovery") {
		return true
	}
	return strings.Contains(path, clientsetTypedIn) && strings.HasSuffix(name, "Client") && HasMethods(t, "RESTClient")
}

// isConfig reports whether t is client-go's *rest.Config.
func isConfig(t types.Type) bool { return Is(t, RestPkg, "Config") }

// IsOwnConfigSource reports whether fn returns the process's own
// configuration, the same on every call: rest.InClusterConfig and
// controller-runtime's config.GetConfig, GetConfigOrDie and
// GetConfigWithContext (ctrl.GetConfig and ctrl.GetConfigOrDie are
// variables holding them).
func IsOwnConfigSource(fn *types.Func) bool {
	if IsFunc(fn, RestPkg, "InClusterConfig") {
		return true
	}
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != CRConfigPkg {
		return false
	}
	switch fn.Name() {
	case "GetConfig", "GetConfigOrDie", "GetConfigWithContext":
		return true
	}
	return false
}

// IsManagerConfig reports whether fn is GetConfig of a controller-runtime
// manager or cluster: the config the manager was built with.
func IsManagerConfig(fn *types.Func, recv types.Type) bool {
	if fn == nil || fn.Name() != "GetConfig" || recv == nil {
		return false
	}
	path, _ := PathName(recv)
	return path == CRManagerPkg || path == CRClusterPkg
}
