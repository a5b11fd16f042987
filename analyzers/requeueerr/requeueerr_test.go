package requeueerr_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/requeueerr"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentControllerRuntime(t *testing.T) {
	analysistest.Run(t, fixture("current"), requeueerr.Analyzer, "./requeueerr")
}

// TestLegacyControllerRuntime: controller-runtime v0.18 (with client-go
// v0.30), where reconcile.Func is its own func type.
func TestLegacyControllerRuntime(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), requeueerr.Analyzer, "./requeueerr")
}

// TestV017: controller-runtime v0.5, whose Reconcile takes no context.
func TestV017(t *testing.T) {
	analysistest.Run(t, fixture("v017"), requeueerr.Analyzer, "./requeueerr")
}
