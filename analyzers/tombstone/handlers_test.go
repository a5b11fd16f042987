package tombstone

import (
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// loadKube loads the fixture package whose variables kube's tests and these
// share: their name prefixes say which recogniser must hold.
func loadKube(t *testing.T, name string) *packages.Package {
	return fixture.LoadOne(t, name, "./kube", fixture.SyntaxMode)
}

// handlerPredicates maps a variable-name prefix in the kube fixture to the
// one predicate of this file that must hold for its type; for every other
// variable (kube's test checks its own prefixes) none may.
var handlerPredicates = map[string]func(types.Type) bool{
	"tombstone": isTombstoneType,
	"deleted":   isDeletedObject,
}

// TestRecognition runs the predicates over fixtures compiled against the
// real client-go, the newest release and one more than two years older.
func TestRecognition(t *testing.T) {
	for _, name := range []string{"current", "legacy"} {
		t.Run(name, func(t *testing.T) {
			scope := loadKube(t, name).Types.Scope()
			checked := 0
			for _, v := range scope.Names() {
				obj, ok := scope.Lookup(v).(*types.Var)
				if !ok {
					continue
				}
				want := ""
				for prefix := range handlerPredicates {
					if strings.HasPrefix(v, prefix) && len(prefix) > len(want) {
						want = prefix
					}
				}
				for prefix, pred := range handlerPredicates {
					if got := pred(obj.Type()); got != (prefix == want) {
						t.Errorf("%s (%s): %s = %v, want %v", v, obj.Type(), prefix, got, prefix == want)
					}
				}
				if want != "" {
					checked++
				}
			}
			if checked == 0 {
				t.Fatalf("no fixture variable checked")
			}
		})
	}
}

func TestRegistrationAndKeyFuncs(t *testing.T) {
	pkg := loadKube(t, "current")
	cache := kube.LookupPackage(pkg.Types, kube.CachePkg)
	iface := cache.Scope().Lookup("SharedIndexInformer").Type()
	for _, m := range []string{"AddEventHandler", "AddEventHandlerWithResyncPeriod", "AddEventHandlerWithOptions"} {
		obj, _, _ := types.LookupFieldOrMethod(iface, true, cache, m)
		if !kube.IsHandlerRegistration(obj.(*types.Func)) {
			t.Errorf("%s is not recognised as a handler registration", m)
		}
	}
	typed := cache.Scope().Lookup("TypedSharedIndexInformer").Type()
	obj, _, _ := types.LookupFieldOrMethod(typed, true, cache, "AddTypedEventHandler")
	if !kube.IsHandlerRegistration(obj.(*types.Func)) {
		t.Errorf("AddTypedEventHandler is not recognised")
	}
	podIndex := pkg.Types.Scope().Lookup("informerPodIndex").Type()
	obj, _, _ = types.LookupFieldOrMethod(podIndex, true, pkg.Types, "AddTypedEventHandler")
	if !kube.IsHandlerRegistration(obj.(*types.Func)) {
		t.Errorf("PodIndexInformer.AddTypedEventHandler is not recognised")
	}
	obj, _, _ = types.LookupFieldOrMethod(iface, true, cache, "GetIndexer")
	if kube.IsHandlerRegistration(obj.(*types.Func)) {
		t.Errorf("GetIndexer is recognised as a registration")
	}
	for name, want := range map[string]tombstoneFunc{
		"MetaNamespaceKeyFunc":                 {Replacement: "DeletionHandlingMetaNamespaceKeyFunc"},
		"DeletionHandlingMetaNamespaceKeyFunc": {Handles: true},
		"ObjectToName":                         {Replacement: "DeletionHandlingObjectToName"},
	} {
		fn := cache.Scope().Lookup(name).(*types.Func)
		if got, ok := tombstoneFuncOf(fn); !ok || got != want {
			t.Errorf("tombstoneFuncOf(%s) = %+v, %v", name, got, ok)
		}
	}
	if _, ok := tombstoneFuncOf(cache.Scope().Lookup("SplitMetaNamespaceKey").(*types.Func)); ok {
		t.Errorf("SplitMetaNamespaceKey is in the tombstone table")
	}
}
