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

// TestHandlerTable: the registration table tombstone and eventpath share
// matches the real client-go of both modules: every func-typed field of
// every handler struct the fixtures declare has an event in the table, the
// fields with an event are func-typed, and HandlerMethods are exactly the
// methods of cache.ResourceEventHandler, which a struct implements.
func TestHandlerTable(t *testing.T) {
	for _, mod := range []string{"current", "legacy"} {
		pkg := load(t, mod)
		scope := pkg.Types.Scope()
		structs := 0
		for _, name := range scope.Names() {
			v, ok := scope.Lookup(name).(*types.Var)
			if !ok || !strings.HasPrefix(name, "handler") {
				continue
			}
			structs++
			st := v.Type().Underlying().(*types.Struct)
			for i := range st.NumFields() {
				f := st.Field(i)
				_, isFunc := f.Type().Underlying().(*types.Signature)
				if _, ok := kube.HandlerFieldEvent(f.Name()); ok != isFunc {
					t.Errorf("%s: %s.%s (%s): in the table %v, a function %v", mod, name, f.Name(), f.Type(), ok, isFunc)
				}
			}
			if _, ok := kube.HandlerStructOf(v.Type()); ok && !strings.Contains(name, "Typed") && !kube.IsUntypedHandler(v.Type(), kube.LookupPackage(pkg.Types, kube.CachePkg)) {
				t.Errorf("%s: %s does not implement cache.ResourceEventHandler", mod, name)
			}
		}
		if structs < 3 {
			t.Errorf("%s: %d handler structs in the fixture: the table is not checked", mod, structs)
		}
		iface := kube.LookupPackage(pkg.Types, kube.CachePkg).Scope().Lookup("ResourceEventHandler").Type().Underlying().(*types.Interface)
		var methods, table []string
		for i := range iface.NumMethods() {
			methods = append(methods, iface.Method(i).Name())
		}
		for _, m := range kube.HandlerMethods {
			table = append(table, m.Name)
			if m.Event.SeesDeletions() != (m.Name == "OnDelete") {
				t.Errorf("%s: %s sees deletions: %v", mod, m.Name, m.Event.SeesDeletions())
			}
		}
		slices.Sort(methods)
		slices.Sort(table)
		if !slices.Equal(methods, table) {
			t.Errorf("%s: cache.ResourceEventHandler has %v, the table %v", mod, methods, table)
		}
	}
	for field, deletes := range map[string]bool{"AddFunc": false, "UpdateFunc": false, "DeleteFunc": true, "FilterFunc": true} {
		if e, _ := kube.HandlerFieldEvent(field); e.SeesDeletions() != deletes {
			t.Errorf("%s sees deletions: %v, want %v", field, e.SeesDeletions(), deletes)
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

// TestTypedArgs: a typed client's arguments after its context, on the
// client-go that takes one (v0.18 and later) and on v0.17, which does not:
// the object Update sends and the name Get reads are at index 0 on both.
func TestTypedArgs(t *testing.T) {
	const typedCore = "k8s.io/client-go/kubernetes/typed/core/v1"
	for module, ctx := range map[string]bool{"current": true, "legacy": true, "v017": false} {
		iface := fixture.Types(t, module, typedCore)[typedCore].Scope().Lookup("PodInterface").Type().Underlying().(*types.Interface)
		for _, c := range []struct {
			method, first string // the parameter TypedArgs(...)[0] is, by type
		}{{"Update", "*k8s.io/api/core/v1.Pod"}, {"Get", "string"}} {
			var fn *types.Func
			for m := range iface.Methods() {
				if m.Name() == c.method {
					fn = m
				}
			}
			if fn == nil {
				t.Fatalf("%s: PodInterface has no %s", module, c.method)
			}
			if got := kube.TakesContext(fn); got != ctx {
				t.Errorf("%s: TakesContext(%s) = %v, want %v", module, c.method, got, ctx)
			}
			params := fn.Signature().Params()
			vars := make([]*types.Var, params.Len())
			for i := range vars {
				vars[i] = params.At(i)
			}
			if args := kube.TypedArgs(fn, vars); len(args) == 0 || args[0].Type().String() != c.first {
				t.Errorf("%s: TypedArgs(%s)[0] is not the %s parameter: %v", module, c.method, c.first, args)
			}
		}
	}
}
