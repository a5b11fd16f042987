package kube

import "go/types"

// HandlerStruct describes one of client-go's event-handler adaptor structs.
type HandlerStruct struct {
	// Typed is true for the v0.37 generic variants, whose DeleteFunc
	// receives a cache.DeletedObject[T] instead of interface{}.
	Typed bool
	// Filtering is true for FilteringResourceEventHandler and its typed
	// variant: their FilterFunc sees deletions too.
	Filtering bool
}

// handlerStructs are the adaptor structs of k8s.io/client-go/tools/cache.
var handlerStructs = map[string]HandlerStruct{
	"ResourceEventHandlerFuncs":              {},
	"ResourceEventHandlerDetailedFuncs":      {},
	"FilteringResourceEventHandler":          {Filtering: true},
	"TypedResourceEventHandlerFuncs":         {Typed: true},
	"TypedResourceEventHandlerDetailedFuncs": {Typed: true},
	"TypedFilteringResourceEventHandler":     {Typed: true, Filtering: true},
}

// HandlerStructOf reports whether t (or *t) is one of client-go's
// event-handler adaptor structs, including aliases such as the generated
// corev1informers.PodHandlerFuncs: tombstone follows what their delete
// functions receive, listerbypass what all of them read on every event.
func HandlerStructOf(t types.Type) (HandlerStruct, bool) {
	path, name := PathName(t)
	if path != CachePkg {
		return HandlerStruct{}, false
	}
	h, ok := handlerStructs[name]
	return h, ok
}

// waitLoops are the wait helpers that run a function over and over until
// stopped: how controllers run their workers and their periodic passes.
var waitLoops = map[string]bool{
	"Until":                      true,
	"UntilWithContext":           true,
	"NonSlidingUntil":            true,
	"NonSlidingUntilWithContext": true,
	"JitterUntil":                true,
	"JitterUntilWithContext":     true,
	"BackoffUntil":               true,
	"BackoffUntilWithContext":    true,
	"Forever":                    true,
}

// IsWaitLoop reports whether fn is one of apimachinery's wait helpers that
// call a function they are given over and over until stopped (wait.Until,
// UntilWithContext, NonSlidingUntil*, JitterUntil*, BackoffUntil*,
// Forever): cachesync finds workers started by them, listerbypass the
// periodic passes they run. The Poll* helpers are not loops of this kind:
// they stop once their condition holds.
func IsWaitLoop(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != WaitPkg || !waitLoops[fn.Name()] {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() == nil
}

// registrationMethods are the informer methods that take an event handler.
var registrationMethods = map[string]bool{
	"AddEventHandler":                 true,
	"AddEventHandlerWithResyncPeriod": true,
	"AddEventHandlerWithOptions":      true,
	"AddTypedEventHandler":            true,
}

// IsHandlerRegistration reports whether fn is an informer method that
// registers an event handler: client-go's SharedInformer family (typed and
// untyped, including generated types such as corev1informers.PodIndexInformer)
// and controller-runtime's cache.Informer, which wraps it.
//
// The receiver's type decides as well as the method's package: in compiler
// export data (go vet), the methods of a defined interface type such as
// `type PodIndexInformer cache.TypedSharedIndexInformer[*v1.Pod]` belong to
// the package that defines the type, not to client-go's cache package.
func IsHandlerRegistration(fn *types.Func) bool {
	if fn == nil || !registrationMethods[fn.Name()] || fn.Pkg() == nil {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case CachePkg, CRCachePkg, CRCacheAPIPkg:
		return true
	}
	return IsInformer(sig.Recv().Type())
}
