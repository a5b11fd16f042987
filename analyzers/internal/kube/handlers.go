package kube

import "go/types"

// What registers an informer's event handler, the one table of it that
// tombstone's delete-handler roots (on the syntax: the functions it follows
// are named where they are registered) and eventpath's handler roots (on
// SSA) both read: the handler structs and their function fields
// (HandlerStructOf, HandlerFieldEvent), the methods of a handler type
// (HandlerMethods, IsUntypedHandler) and the informer methods that take a
// handler (IsHandlerRegistration).

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

// A HandlerEvent is the informer event a handler function is called for.
type HandlerEvent int

const (
	AddEvent HandlerEvent = iota + 1
	UpdateEvent
	DeleteEvent
	// FilterEvent is a filtering handler's FilterFunc, called for every
	// event before the handler it wraps: deletions included.
	FilterEvent
)

// SeesDeletions reports whether a handler for e receives deleted objects,
// which may be tombstones (cache.DeletedFinalStateUnknown) for an untyped
// handler.
func (e HandlerEvent) SeesDeletions() bool { return e == DeleteEvent || e == FilterEvent }

// handlerFuncFields are the function fields of client-go's handler structs
// (handlerStructs). A filtering handler's Handler field holds a handler,
// not a function: it is not here.
var handlerFuncFields = map[string]HandlerEvent{
	"AddFunc":    AddEvent,
	"UpdateFunc": UpdateEvent,
	"DeleteFunc": DeleteEvent,
	"FilterFunc": FilterEvent,
}

// HandlerFieldEvent reports the event the function stored in the named
// field of a handler struct (HandlerStructOf) is called for.
func HandlerFieldEvent(field string) (HandlerEvent, bool) {
	e, ok := handlerFuncFields[field]
	return e, ok
}

// HandlerMethods are the methods of client-go's cache.ResourceEventHandler
// interface, in the order of the events they handle: an informer calls
// them on a handler value registered with it (IsHandlerRegistration).
var HandlerMethods = []struct {
	Name  string
	Event HandlerEvent
}{
	{"OnAdd", AddEvent},
	{"OnUpdate", UpdateEvent},
	{"OnDelete", DeleteEvent},
}

// IsUntypedHandler reports whether t implements client-go's untyped
// cache.ResourceEventHandler interface, whose OnDelete receives
// tombstones; cachePkg is client-go's cache package as seen from the
// analysed package (LookupPackage), nil when it cannot see it.
func IsUntypedHandler(t types.Type, cachePkg *types.Package) bool {
	if cachePkg == nil {
		return false
	}
	obj, _ := cachePkg.Scope().Lookup("ResourceEventHandler").(*types.TypeName)
	if obj == nil {
		return false
	}
	iface, _ := obj.Type().Underlying().(*types.Interface)
	return iface != nil && types.Implements(t, iface)
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
