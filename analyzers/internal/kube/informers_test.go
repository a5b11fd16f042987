package kube_test

import (
	"go/types"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// TestInformerStartsAndWaits checks the table of cache-sync waits and the
// informer starts against client-go v0.37 and v0.30 (cachesync's tests run
// them on its fixtures' variables).
func TestInformerStartsAndWaits(t *testing.T) {
	const crCache = kube.CRCachePkg
	// Functions of the wait table that client-go v0.30 lacks.
	newer := map[string]bool{"WaitForNamedCacheSyncWithContext": true, "WaitFor": true}
	for _, module := range []string{"current", "legacy"} {
		t.Run(module, func(t *testing.T) {
			pkgs := fixture.Types(t, module, kube.CachePkg, kube.InformersPkg, kube.WaitPkg, crCache)
			for name := range kube.CacheWaitFuncs() {
				fn, ok := pkgs[kube.CachePkg].Scope().Lookup(name).(*types.Func)
				if !ok {
					if module != "legacy" || !newer[name] {
						t.Errorf("cache.%s is not a function", name)
					}
					continue
				}
				if !kube.WaitsForCacheSync(fn, nil) {
					t.Errorf("WaitsForCacheSync(cache.%s) = false", name)
				}
			}
			for name := range kube.FactoryWaitMethods() {
				if name == "WaitForCacheSyncWithContext" && module == "legacy" {
					continue // client-go v0.34
				}
				if fn := method(t, pkgs, kube.InformersPkg, "SharedInformerFactory", name); !kube.WaitsForCacheSync(fn, nil) {
					t.Errorf("WaitsForCacheSync(SharedInformerFactory.%s) = false", name)
				}
			}
			if fn := method(t, pkgs, crCache, "Cache", "WaitForCacheSync"); !kube.WaitsForCacheSync(fn, nil) {
				t.Errorf("WaitsForCacheSync(controller-runtime Cache.WaitForCacheSync) = false")
			}
			if fn := pkgs[kube.WaitPkg].Scope().Lookup("PollUntil").(*types.Func); kube.WaitsForCacheSync(fn, nil) {
				t.Errorf("wait.PollUntil is taken for a cache-sync wait")
			}

			factory := pkgs[kube.InformersPkg].Scope().Lookup("SharedInformerFactory").Type()
			start := method(t, pkgs, kube.InformersPkg, "SharedInformerFactory", "Start")
			if !kube.IsFactoryStart(start, factory) || kube.IsInformerRun(start, factory) || !kube.StartsInformers(start, factory) {
				t.Errorf("SharedInformerFactory.Start is not a factory start")
			}
			informer := pkgs[kube.CachePkg].Scope().Lookup("SharedIndexInformer").Type()
			run := method(t, pkgs, kube.CachePkg, "SharedIndexInformer", "Run")
			if !kube.IsInformerRun(run, informer) || kube.IsFactoryStart(run, informer) || !kube.StartsInformers(run, informer) {
				t.Errorf("SharedIndexInformer.Run is not an informer run")
			}
			if hasSynced := method(t, pkgs, kube.CachePkg, "SharedIndexInformer", "HasSynced"); kube.StartsInformers(hasSynced, informer) {
				t.Errorf("SharedIndexInformer.HasSynced is taken for a start")
			}
			if kube.StartsInformers(start, nil) || kube.StartsInformers(nil, factory) {
				t.Errorf("a start without a receiver or a function")
			}
		})
	}
}
