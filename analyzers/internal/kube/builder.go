package kube

import (
	"go/types"
)

// CRPredicatePkg holds controller-runtime's event predicates.
const CRPredicatePkg = "sigs.k8s.io/controller-runtime/pkg/predicate"

// A BuilderCall is what a method of controller-runtime's controller
// builder (builder.Builder, builder.TypedBuilder since v0.19) does. Every
// method but Complete and Build returns its receiver, so a chain of calls
// configures one controller.
type BuilderCall int

const (
	NotBuilder BuilderCall = iota
	// BuilderFor: For(object, opts...), the primary kind, whose events
	// start a Reconcile of the object itself.
	BuilderFor
	// BuilderOwns: Owns(object, opts...), a kind whose events start a
	// Reconcile of the object's controller (its controller reference).
	BuilderOwns
	// BuilderWatches: Watches(object, handler, opts...) since v0.15, and
	// WatchesMetadata; before v0.15 Watches(source, handler).
	BuilderWatches
	// BuilderRawSource: WatchesRawSource(source), the object the source
	// names (source.Kind(cache, object, handler, ...)).
	BuilderRawSource
	// BuilderEventFilter: WithEventFilter(predicate), applied to every
	// watch of the controller, For, Owns and Watches alike.
	BuilderEventFilter
	// BuilderDone: Complete(reconciler) and Build(reconciler), which end
	// the chain and hand it the reconciler.
	BuilderDone
	// BuilderOther: Named, WithOptions, WithLogConstructor: the chain goes
	// on, nothing watched.
	BuilderOther
)

// BuilderCallOf says what fn, a method called on a value of recv's type,
// does to a controller-runtime builder chain.
func BuilderCallOf(fn *types.Func, recv types.Type) BuilderCall {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != CRBuilderPkg {
		return NotBuilder
	}
	if !IsBuilder(recv) {
		return NotBuilder
	}
	switch fn.Name() {
	case "For", "ForType": // ForType: For's name before v0.6
		return BuilderFor
	case "Owns":
		return BuilderOwns
	case "Watches", "WatchesMetadata":
		return BuilderWatches
	case "WatchesRawSource":
		return BuilderRawSource
	case "WithEventFilter":
		return BuilderEventFilter
	case "Complete", "Build":
		return BuilderDone
	}
	return BuilderOther
}

// IsBuilder reports whether t is (a pointer to) controller-runtime's
// controller builder.
func IsBuilder(t types.Type) bool {
	path, name := PathName(t)
	return path == CRBuilderPkg && (name == "Builder" || name == "TypedBuilder")
}

// IsSourceKind reports whether fn is controller-runtime's source.Kind (a
// function since v0.15, whose second argument is the object; a struct
// before, whose Type field is).
func IsSourceKind(fn *types.Func) bool {
	return IsFunc(fn, CRSourcePkg, "Kind") || IsFunc(fn, CRSourcePkg, "TypedKind")
}

// ctrlAliases are the functions controller-runtime's root package
// (`ctrl`) re-exports as variables: a call of ctrl.X is a call of a func
// value, which names its function only through this table.
var ctrlAliases = map[string][2]string{
	"NewControllerManagedBy": {CRBuilderPkg, "ControllerManagedBy"},
	"SetControllerReference": {ControllerUtilPkg, "SetControllerReference"},
	"CreateOrUpdate":         {ControllerUtilPkg, "CreateOrUpdate"},
	"NewManager":             {CRManagerPkg, "New"},
}

// CtrlAlias returns the package path and name of the function the
// variable name of controller-runtime's root package holds, if it is
// one ctrllint knows.
func CtrlAlias(name string) (pkg, fn string, ok bool) {
	a, ok := ctrlAliases[name]
	return a[0], a[1], ok
}

// HidesStatusChanges reports whether a predicate of type t passes no
// event whose only change is to an object's status: GenerationChanged
// (the generation moves with the spec only), LabelChanged and
// AnnotationChanged. ResourceVersionChanged passes them.
func HidesStatusChanges(t types.Type) bool {
	path, name := PathName(t)
	if path != CRPredicatePkg {
		return false
	}
	switch name {
	case "GenerationChangedPredicate", "TypedGenerationChangedPredicate",
		"LabelChangedPredicate", "TypedLabelChangedPredicate",
		"AnnotationChangedPredicate", "TypedAnnotationChangedPredicate":
		return true
	}
	return false
}

// PredicateCombinator returns "Or", "And" or "Not" when fn is one of
// controller-runtime's predicate combinators, "" otherwise.
func PredicateCombinator(fn *types.Func) string {
	for _, name := range []string{"Or", "And", "Not"} {
		if IsFunc(fn, CRPredicatePkg, name) {
			return name
		}
	}
	return ""
}

// IsCRObjectWrite reports whether fn is one of controller-runtime's
// client methods that send an object it is handed (its second argument):
// Create, Update and Patch of client.Writer and of the status and
// subresource writers, however the client is reached (an embedded
// client.Client promotes the interface's own method).
func IsCRObjectWrite(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != CRClientPkg {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	switch fn.Name() {
	case "Create", "Update", "Patch":
		return true
	}
	return false
}
