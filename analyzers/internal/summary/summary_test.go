package summary

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestLocalAndLibrary(t *testing.T) {
	for _, tc := range []struct {
		path         string
		mod          *analysis.Module
		local, libra bool
	}{
		{"example.com/op/pkg/controller", &analysis.Module{Path: "example.com/op"}, true, false},
		{"example.com/op/pkg/controller", &analysis.Module{Path: "example.com/op", Main: true}, true, false},
		{"example.com/dep/util", &analysis.Module{Path: "example.com/dep", Version: "v1.2.3"}, false, false},
		// kubernetes' staging modules: replaced by directories, required at v0.0.0.
		{"k8s.io/client-go/tools/cache", &analysis.Module{Path: "k8s.io/client-go", Version: "v0.0.0", Replace: &analysis.Module{Path: "./staging/src/k8s.io/client-go"}}, false, true},
		{"k8s.io/client-go/tools/cache", &analysis.Module{Path: "k8s.io/client-go", Version: "v0.37.1"}, false, true},
		{"k8s.io/api/core/v1", &analysis.Module{Path: "k8s.io/api", Version: "v0.37.1"}, false, true},
		{"k8s.io/apiserver/pkg/server", &analysis.Module{Path: "k8s.io/apiserver", Version: "v0.37.1"}, false, false},
		// The library's own repository, analysed as the main module.
		{"sigs.k8s.io/controller-runtime/pkg/cache", &analysis.Module{Path: "sigs.k8s.io/controller-runtime"}, true, false},
		// The standard library under the checker: an empty module.
		{"net/http", &analysis.Module{}, false, false},
		// No module information (nogo): by path.
		{"net/http", nil, false, false},
		{"example.com/op/pkg/controller", nil, true, false},
		{"k8s.io/client-go/tools/cache", nil, false, true},
		{"k8s.io/apimachinery", nil, false, true},
		{"k8s.io/apimachinery-extra/x", nil, true, false},
	} {
		pass := &analysis.Pass{Pkg: types.NewPackage(tc.path, "p"), Module: tc.mod}
		if got := Local(pass); got != tc.local {
			t.Errorf("Local(%s, %+v) = %v, want %v", tc.path, tc.mod, got, tc.local)
		}
		if got := Library(pass); got != tc.libra {
			t.Errorf("Library(%s, %+v) = %v, want %v", tc.path, tc.mod, got, tc.libra)
		}
	}
}
