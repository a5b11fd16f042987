package cachesync

import (
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// loadSync loads the kubesync fixture package of a fixture module.
func loadSync(t *testing.T, name string) *packages.Package {
	return fixture.LoadOne(t, name, "./kubesync", fixture.SyntaxMode)
}

// syncMethod returns the method name of the type of the fixture variable v.
func syncMethod(t *testing.T, pkg *packages.Package, v, name string) (*types.Func, types.Type) {
	t.Helper()
	obj := pkg.Types.Scope().Lookup(v)
	if obj == nil {
		t.Fatalf("no fixture variable %s", v)
	}
	m, _, _ := types.LookupFieldOrMethod(obj.Type(), true, pkg.Types, name)
	fn, ok := m.(*types.Func)
	if !ok {
		t.Fatalf("%s has no method %s", v, name)
	}
	return fn, obj.Type()
}

// function returns the package-level function name of the package path
// as the fixture sees it.
func function(t *testing.T, pkg *packages.Package, path, name string) *types.Func {
	t.Helper()
	p := pkg.Types
	if path != "" {
		p = kube.LookupPackage(pkg.Types, path)
	}
	if p == nil {
		t.Fatalf("the fixture does not import %s", path)
	}
	fn, ok := p.Scope().Lookup(name).(*types.Func)
	if !ok {
		t.Fatalf("no function %s.%s", path, name)
	}
	return fn
}

// TestFactoriesAndHandles: the fixture variables' prefixes say what each is
// (factory, accessor, resource informer, or other).
func TestFactoriesAndHandles(t *testing.T) {
	for _, fixture := range []string{"current", "legacy"} {
		t.Run(fixture, func(t *testing.T) {
			pkg := loadSync(t, fixture)
			scope := pkg.Types.Scope()
			checked := 0
			for _, name := range scope.Names() {
				v, ok := scope.Lookup(name).(*types.Var)
				if !ok || strings.HasPrefix(name, "launch") || strings.HasPrefix(name, "notLaunched") {
					continue
				}
				typ := v.Type()
				for pred, want := range map[string]bool{
					"factory":  strings.HasPrefix(name, "factory"),
					"accessor": strings.HasPrefix(name, "accessor"),
					"resource": strings.HasPrefix(name, "resource"),
				} {
					var got bool
					switch pred {
					case "factory":
						got = kube.IsInformerFactory(typ)
					case "accessor":
						got = isFactoryAccessor(typ)
					case "resource":
						got = isResourceInformer(typ)
					}
					if got != want {
						t.Errorf("%s (%s): %s = %v, want %v", name, typ, pred, got, want)
					}
				}
				checked++
			}
			if checked < 10 {
				t.Fatalf("only %d fixture variables checked", checked)
			}
		})
	}
}

func TestCacheSyncWaits(t *testing.T) {
	for _, fixture := range []string{"current", "legacy"} {
		t.Run(fixture, func(t *testing.T) {
			pkg := loadSync(t, fixture)
			waits := []string{"WaitForCacheSync", "WaitForNamedCacheSync"}
			if fixture == "current" {
				waits = append(waits, "WaitForNamedCacheSyncWithContext", "WaitFor")
			}
			for _, name := range waits {
				if fn := function(t, pkg, kube.CachePkg, name); !kube.WaitsForCacheSync(fn, nil) {
					t.Errorf("cache.%s is not a wait", name)
				}
			}
			for _, name := range []string{"WaitForCacheSync", "WaitForCacheSyncWithContext"} {
				if fixture == "legacy" && name == "WaitForCacheSyncWithContext" {
					continue // v0.30's factory has only the stop-channel wait
				}
				if fn, recv := syncMethod(t, pkg, "factoryTyped", name); !kube.WaitsForCacheSync(fn, recv) {
					t.Errorf("the typed factory's %s is not a wait", name)
				}
			}
			for _, v := range []string{"factoryDynamic", "factoryMetadata"} {
				if fn, recv := syncMethod(t, pkg, v, "WaitForCacheSync"); !kube.WaitsForCacheSync(fn, recv) {
					t.Errorf("%s.WaitForCacheSync is not a wait", v)
				}
			}
			if fixture == "current" {
				if fn, recv := syncMethod(t, pkg, "otherCRCache", "WaitForCacheSync"); !kube.WaitsForCacheSync(fn, recv) {
					t.Errorf("controller-runtime's cache WaitForCacheSync is not a wait")
				}
			}
			for _, v := range []string{"factoryTyped", "otherShared"} {
				for _, m := range []string{"Start", "HasSynced", "Run"} {
					if fn, recv, ok := lookupMethod(pkg, v, m); ok && kube.WaitsForCacheSync(fn, recv) {
						t.Errorf("%s.%s is taken for a wait", v, m)
					}
				}
			}
			if kube.WaitsForCacheSync(function(t, pkg, kube.WaitPkg, "PollUntil"), nil) {
				t.Errorf("wait.PollUntil is taken for a cache wait")
			}
			if !takesSyncChecks(function(t, pkg, "", "allSynced")) {
				t.Errorf("a bool helper given InformerSynced values is not a wait helper")
			}
			if fixture == "current" && !takesSyncChecks(function(t, pkg, "", "allDone")) {
				t.Errorf("a bool helper given DoneCheckers is not a wait helper")
			}
			if takesSyncChecks(function(t, pkg, "", "countSynced")) {
				t.Errorf("a helper that returns an int is taken for a wait")
			}
		})
	}
}

func lookupMethod(pkg *packages.Package, v, name string) (*types.Func, types.Type, bool) {
	obj := pkg.Types.Scope().Lookup(v)
	m, _, _ := types.LookupFieldOrMethod(obj.Type(), true, pkg.Types, name)
	fn, ok := m.(*types.Func)
	return fn, obj.Type(), ok
}

func TestStartsAndRequests(t *testing.T) {
	for _, fixture := range []string{"current", "legacy"} {
		t.Run(fixture, func(t *testing.T) {
			pkg := loadSync(t, fixture)
			for _, v := range []string{"factoryTyped", "factoryDynamic", "factoryMetadata", "factoryInternal"} {
				if fn, recv := syncMethod(t, pkg, v, "Start"); !kube.IsFactoryStart(fn, recv) {
					t.Errorf("%s.Start is not a factory start", v)
				}
			}
			if fn, recv := syncMethod(t, pkg, "launchLoopGroup", "Start"); kube.IsFactoryStart(fn, recv) {
				t.Errorf("wait.Group's Start is taken for a factory start")
			}
			if fn, recv := syncMethod(t, pkg, "otherShared", "Run"); !kube.IsInformerRun(fn, recv) {
				t.Errorf("SharedIndexInformer.Run is not an informer run")
			}
			requests := map[string][]string{
				"factoryTyped":    {"InformerFor", "ForResource"},
				"factoryInternal": {"InformerFor"},
				"factoryDynamic":  {"ForResource"},
				"factoryMetadata": {"ForResource"},
				"resourcePods":    {"Informer", "Lister"},
			}
			if fixture == "current" {
				requests["resourceTyped"] = []string{"Informer", "TypedInformer", "Lister"}
			}
			for v, ms := range requests {
				for _, m := range ms {
					if fn, recv := syncMethod(t, pkg, v, m); !isInformerRequest(fn, recv) {
						t.Errorf("%s.%s is not an informer request", v, m)
					}
				}
			}
			for v, m := range map[string]string{
				"otherGeneric":    "Informer", // ForResource already made it
				"otherShared":     "GetStore",
				"factoryTyped":    "WaitForCacheSync",
				"accessorVersion": "Pods",
			} {
				if fn, recv := syncMethod(t, pkg, v, m); isInformerRequest(fn, recv) {
					t.Errorf("%s.%s is taken for an informer request", v, m)
				}
			}
			hasSynced, _ := syncMethod(t, pkg, "otherShared", "HasSynced")
			if !isHasSynced(hasSynced) {
				t.Errorf("SharedIndexInformer.HasSynced is not recognised")
			}
			if fixture == "current" {
				checker, _ := syncMethod(t, pkg, "otherPodIndex", "HasSyncedChecker")
				if !isHasSynced(checker) {
					t.Errorf("PodIndexInformer.HasSyncedChecker is not recognised")
				}
			}
			if start, _ := syncMethod(t, pkg, "factoryTyped", "Start"); isHasSynced(start) {
				t.Errorf("a factory's Start is taken for HasSynced")
			}
			for name, want := range map[string]bool{"NewStore": true, "NewIndexer": true, "NewTTLStore": true, "NewSharedIndexInformer": false, "NewIndexerInformer": false, "MetaNamespaceKeyFunc": false} {
				if got := isStoreConstructor(function(t, pkg, kube.CachePkg, name)); got != want {
					t.Errorf("isStoreConstructor(cache.%s) = %v, want %v", name, got, want)
				}
			}
		})
	}
}
