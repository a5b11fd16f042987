package clientperreconcile

import (
	"go/types"
	"strings"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// built says what a client builder returns, and so what building one
// costs.
type built int

const (
	// builtClient is a client with its own HTTP transport (its own
	// connections) and its own client-side rate limiter: clientsets,
	// typed group clients, the dynamic, metadata and discovery clients,
	// REST clients and the HTTP client under them, controller-runtime's
	// client.New.
	builtClient built = iota + 1
	// builtInformers is a shared informer factory: its informers list
	// and watch the cluster again when started.
	builtInformers
	// builtCache is a controller-runtime cache, cluster or manager: a
	// client of its own and informers that list and watch the cluster.
	builtCache
)

// clientBuilder reports whether fn, a package-level function of a library,
// builds a client, an informer factory or a controller-runtime cache from
// the config or client it is given first, and what it builds. Clients are
// recognised by what they return, so generated clientsets (any package's
// NewForConfig returning a clientset or typed group client) are known
// without being listed.
func clientBuilder(fn *types.Func) (built, bool) {
	if fn == nil || fn.Pkg() == nil {
		return 0, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() != nil || sig.Results().Len() == 0 || sig.Params().Len() == 0 {
		return 0, false
	}
	path, name := fn.Pkg().Path(), fn.Name()
	switch path {
	case kube.RestPkg:
		switch name {
		case "RESTClientFor", "UnversionedRESTClientFor", "HTTPClientFor":
			return builtClient, true
		}
		return 0, false
	case kube.CRClientPkg:
		if name == "New" || name == "NewWithWatch" {
			return builtClient, true
		}
		return 0, false
	case kube.CRClusterPkg, kube.CRManagerPkg, kube.CRCachePkg:
		if name == "New" {
			return builtCache, true
		}
		return 0, false
	}
	if !strings.HasPrefix(name, "New") {
		return 0, false
	}
	result := sig.Results().At(0).Type()
	if kube.IsInformerFactory(result) {
		return builtInformers, true
	}
	if !strings.Contains(name, "ForConfig") {
		return 0, false
	}
	if isRestConfig(sig.Params().At(0).Type()) && isBuiltClient(result) {
		return builtClient, true
	}
	return 0, false
}

// isBuiltClient reports whether t is a client built from a config:
// a clientset (client-go's or a generated one: a Clientset or Interface
// with Discovery()), a typed group client (a *Client type of a typed
// package, with RESTClient()), the dynamic or metadata client, or a
// discovery client.
func isBuiltClient(t types.Type) bool {
	path, name := kube.PathName(t)
	switch path {
	case kube.DynamicPkg, kube.MetadataPkg:
		return true
	case kube.DiscoveryPkg:
		return strings.Contains(name, "DiscoveryClient") || name == "DiscoveryInterface"
	}
	if kube.IsClientset(t) {
		return true
	}
	if (name == "Clientset" || name == "Interface") && kube.HasMethods(t, "Discovery") {
		return true
	}
	return strings.Contains(path, "/typed/") && strings.HasSuffix(name, "Client") && kube.HasMethods(t, "RESTClient")
}

// isConfig reports whether t is client-go's *rest.Config.
func isRestConfig(t types.Type) bool { return kube.Is(t, kube.RestPkg, "Config") }

// isOwnConfigSource reports whether fn returns the process's own
// configuration, the same on every call: rest.InClusterConfig and
// controller-runtime's config.GetConfig, GetConfigOrDie and
// GetConfigWithContext (ctrl.GetConfig and ctrl.GetConfigOrDie are
// variables holding them).
func isOwnConfigSource(fn *types.Func) bool {
	if kube.IsFunc(fn, kube.RestPkg, "InClusterConfig") {
		return true
	}
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kube.CRConfigPkg {
		return false
	}
	switch fn.Name() {
	case "GetConfig", "GetConfigOrDie", "GetConfigWithContext":
		return true
	}
	return false
}

// isManagerConfig reports whether fn is GetConfig of a controller-runtime
// manager or cluster: the config the manager was built with.
func isManagerConfig(fn *types.Func, recv types.Type) bool {
	if fn == nil || fn.Name() != "GetConfig" || recv == nil {
		return false
	}
	path, _ := kube.PathName(recv)
	return path == kube.CRManagerPkg || path == kube.CRClusterPkg
}
