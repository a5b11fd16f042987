package summary

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/lend"
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
		pass := &analysis.Pass{Pkg: types.NewPackage(tc.path, "p"), Module: tc.mod, ResultOf: map[*analysis.Analyzer]any{lend.Analyzer: (*lend.Run)(nil)}}
		if got := Local(pass); got != tc.local {
			t.Errorf("Local(%s, %+v) = %v, want %v", tc.path, tc.mod, got, tc.local)
		}
		if got := Library(pass); got != tc.libra {
			t.Errorf("Library(%s, %+v) = %v, want %v", tc.path, tc.mod, got, tc.libra)
		}
	}
}

// Under ctrllint's driver, every package an analyzer is run on belongs to
// an analysed module, whatever its version.
func TestLocalUnderTheDriver(t *testing.T) {
	pass := &analysis.Pass{
		Pkg:      types.NewPackage("k8s.io/kubernetes/pkg/controller", "controller"),
		Module:   &analysis.Module{Path: "k8s.io/kubernetes", Version: "v1.37.2"},
		ResultOf: map[*analysis.Analyzer]any{lend.Analyzer: lend.NewRun()},
	}
	if !Local(pass) {
		t.Error("not local under the driver")
	}
	pass.ResultOf[lend.Analyzer] = (*lend.Run)(nil)
	if Local(pass) {
		t.Error("local at a version without the driver")
	}
}
