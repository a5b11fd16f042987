package kube_test

import (
	"go/types"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// TestCacheReadOf: the reads of listers, stores and indexers return cached
// objects (one, or a fresh slice of many); other methods and clients do
// not.
func TestCacheReadOf(t *testing.T) {
	type tc struct {
		variable, method string
		read, many       bool
	}
	common := []tc{
		{"listerPods", "List", true, true},
		{"listerPods", "Pods", false, false},
		{"listerPodsNS", "Get", true, false},
		{"listerPodsNS", "List", true, true},
		{"listerIndexer", "GetByKey", true, false},
		{"listerIndexer", "Get", true, false},
		{"listerIndexer", "ByIndex", true, true},
		{"listerIndexer", "Index", true, true},
		{"listerIndexer", "List", true, true},
		{"listerIndexer", "ListKeys", false, false},
		{"listerIndexer", "IndexKeys", false, false},
		{"listerIndexer", "Add", false, false},
		{"listerStore", "GetByKey", true, false},
		{"listerGeneric", "Get", true, false},
		{"listerGeneric", "List", true, true},
		{"listerGeneric", "ByNamespace", false, false},
		{"listerReplicaSets", "GetPodReplicaSets", true, true},
		{"typedClientPods", "Get", false, false},
		{"typedClientPods", "List", false, false},
		{"informerShared", "GetStore", false, false},
	}
	current := append(common,
		tc{"listerTypedIndexer", "ByTypedIndex", true, true},
		tc{"listerTypedIndexer", "GetByKey", true, false},
		tc{"notResourceIndexer", "Get", true, false},
		tc{"notResourceIndexer", "List", true, true},
		tc{"notCRClient", "Get", false, false},
		tc{"notCRClient", "List", false, false},
		tc{"notDynamicLister", "List", true, true},
		tc{"notDynamicLister", "Namespace", false, false},
		tc{"notDynamicNSLister", "Get", true, false},
	)
	for module, cases := range map[string][]tc{"current": current, "legacy": common} {
		scope := load(t, module).Types.Scope()
		for _, c := range cases {
			fn, recv := fixture.Method(t, scope, c.variable, c.method)
			r, ok := kube.CacheReadOf(fn, recv)
			if ok != c.read || r.Many != c.many {
				t.Errorf("%s: CacheReadOf(%s.%s) = %+v, %v; want read %v, many %v", module, c.variable, c.method, r, ok, c.read, c.many)
			}
		}
	}
}

// TestCacheCallbackArg: cache.ListAll and cache.ListAllByNamespace hand
// their callback, the AppendFunc at the index returned, each cached
// object; other functions of the package are no such reads. Checked on
// every client-go the fixtures hold, v0.17 included.
func TestCacheCallbackArg(t *testing.T) {
	for _, module := range []string{"current", "legacy", "v017"} {
		scope := fixture.Types(t, module, kube.CachePkg)[kube.CachePkg].Scope()
		for _, name := range []string{"ListAll", "ListAllByNamespace", "MetaNamespaceKeyFunc", "WaitForCacheSync"} {
			fn, _ := scope.Lookup(name).(*types.Func)
			if fn == nil {
				t.Fatalf("%s: no cache.%s", module, name)
			}
			i, ok := kube.CacheCallbackArg(fn)
			want := name == "ListAll" || name == "ListAllByNamespace"
			if ok != want {
				t.Errorf("%s: CacheCallbackArg(cache.%s) = %v, want %v", module, name, ok, want)
				continue
			}
			if ok && !kube.Is(fn.Signature().Params().At(i).Type(), kube.CachePkg, "AppendFunc") {
				t.Errorf("%s: CacheCallbackArg(cache.%s) = %d, not its AppendFunc parameter", module, name, i)
			}
		}
	}
}
