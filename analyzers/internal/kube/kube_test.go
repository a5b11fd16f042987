package kube_test

import (
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// verdicts maps a variable-name prefix in the fixtures to the one predicate
// that must hold for its type; every other predicate must not.
var predicates = map[string]func(types.Type) bool{
	"informer":    kube.IsInformer,
	"lister":      kube.IsLister,
	"clientset":   kube.IsClientset,
	"typedClient": kube.IsTypedResourceClient,
	"rateLimited": func(t types.Type) bool { q, ok := kube.QueueOf(t); return ok && q.RateLimited },
	"queue":       func(t types.Type) bool { q, ok := kube.QueueOf(t); return ok && !q.RateLimited },
	"handler":     func(t types.Type) bool { _, ok := kube.HandlerStructOf(t); return ok },
}

// elsewhere are the prefixes of fixture variables whose predicate belongs
// to one analyzer and is tested there (tombstone's handlers_test.go); none
// of the predicates above may hold for them.
var elsewhere = []string{"tombstone", "deleted"}

// TestRecognition runs the predicates over fixtures compiled against the
// real client-go, the newest release and one more than two years older.
func TestRecognition(t *testing.T) {
	for _, fixture := range []string{"current", "legacy"} {
		t.Run(fixture, func(t *testing.T) {
			pkg := load(t, fixture)
			scope := pkg.Types.Scope()
			checked := 0
			for _, name := range scope.Names() {
				v, ok := scope.Lookup(name).(*types.Var)
				if !ok {
					continue
				}
				want := ""
				for prefix := range predicates {
					if strings.HasPrefix(name, prefix) && len(prefix) > len(want) {
						want = prefix
					}
				}
				if want == "" && !strings.HasPrefix(name, "not") && !slices.ContainsFunc(elsewhere, func(p string) bool { return strings.HasPrefix(name, p) }) {
					t.Fatalf("fixture variable %s has no known prefix", name)
				}
				for prefix, pred := range predicates {
					if got := pred(v.Type()); got != (prefix == want) {
						t.Errorf("%s (%s): %s = %v, want %v", name, v.Type(), prefix, got, prefix == want)
					}
				}
				checked++
			}
			if checked < 15 {
				t.Fatalf("only %d fixture variables checked", checked)
			}
		})
	}
}

func TestQueueAndLookup(t *testing.T) {
	pkg := load(t, "current")
	scope := pkg.Types.Scope()
	if q, _ := kube.QueueOf(scope.Lookup("rateLimitedUntyped").Type()); q.Typed {
		t.Errorf("the deprecated RateLimitingInterface is reported typed")
	}
	if kube.LookupPackage(pkg.Types, kube.CachePkg) == nil {
		t.Errorf("LookupPackage does not find %s among the fixture's imports", kube.CachePkg)
	}
	if kube.LookupPackage(pkg.Types, "example.com/nowhere") != nil {
		t.Errorf("LookupPackage finds a package that is not imported")
	}
}

func load(t *testing.T, name string) *packages.Package {
	return fixture.LoadOne(t, name, "./kube", fixture.SyntaxMode)
}

func TestQueueCall(t *testing.T) {
	for _, fixture := range []string{"current", "legacy"} {
		pkg := load(t, fixture)
		scope := pkg.Types.Scope()
		for _, tc := range []struct {
			variable, method string
			rateLimited      bool
		}{
			{"rateLimitedUntyped", "Get", true},
			{"rateLimitedUntyped", "Forget", true},
			{"queueUntyped", "Done", false},
		} {
			recv := scope.Lookup(tc.variable).Type()
			obj, _, _ := types.LookupFieldOrMethod(recv, true, pkg.Types, tc.method)
			q, name, ok := kube.QueueCall(obj.(*types.Func), recv)
			if !ok || name != tc.method || q.RateLimited != tc.rateLimited {
				t.Errorf("%s: QueueCall(%s.%s) = %+v, %q, %v", fixture, tc.variable, tc.method, q, name, ok)
			}
		}
		recv := scope.Lookup("informerShared").Type()
		obj, _, _ := types.LookupFieldOrMethod(recv, true, pkg.Types, "GetIndexer")
		if _, _, ok := kube.QueueCall(obj.(*types.Func), recv); ok {
			t.Errorf("%s: an informer method is taken for a queue call", fixture)
		}
	}
}

func TestHandlerStructShapes(t *testing.T) {
	scope := load(t, "current").Types.Scope()
	for name, want := range map[string]kube.HandlerStruct{
		"handlerFuncs":       {},
		"handlerFiltering":   {Filtering: true},
		"handlerTyped":       {Typed: true},
		"handlerTypedAlias":  {Typed: true},
		"handlerTypedFilter": {Typed: true, Filtering: true},
	} {
		got, ok := kube.HandlerStructOf(scope.Lookup(name).Type())
		if !ok || got != want {
			t.Errorf("kube.HandlerStructOf(%s) = %+v, %v; want %+v", name, got, ok, want)
		}
	}
}

// TestFreshReadFuncs: the closures of these functions are sanctioned fresh
// reads. kubernetes' pkg/controller is not a fixture dependency (it would
// pull in all of kubernetes), so its function is checked by name and path.
func TestFreshReadFuncs(t *testing.T) {
	pkg := load(t, "current")
	retry := kube.LookupPackage(pkg.Types, kube.RetryPkg)
	if retry == nil {
		t.Fatal("the fixture does not import client-go's retry package")
	}
	for _, name := range []string{"RetryOnConflict", "OnError"} {
		if !kube.IsFreshReadFunc(retry.Scope().Lookup(name).(*types.Func)) {
			t.Errorf("retry.%s is not a fresh-read function", name)
		}
	}
	controller := types.NewPackage("k8s.io/kubernetes/pkg/controller", "controller")
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(), types.NewTuple(), false)
	recheck := types.NewFunc(0, controller, "RecheckDeletionTimestamp", sig)
	if !kube.IsFreshReadFunc(recheck) {
		t.Errorf("controller.RecheckDeletionTimestamp is not a fresh-read function")
	}
	if kube.IsFreshReadFunc(types.NewFunc(0, controller, "KeyFunc", sig)) {
		t.Errorf("an unrelated function of the same package is taken for a fresh-read function")
	}
}
