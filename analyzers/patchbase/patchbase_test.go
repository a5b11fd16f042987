package patchbase_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/patchbase"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

// TestCurrent: controller-runtime v0.25 and client-go v0.37, with the
// suggested fixes.
func TestCurrent(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("current"), patchbase.Analyzer, "./patchbase")
}

// TestLegacy: controller-runtime v0.18 and client-go v0.30.
func TestLegacy(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("legacy"), patchbase.Analyzer, "./patchbase")
}

// TestV017: controller-runtime v0.5, whose MergeFrom takes a runtime.Object.
func TestV017(t *testing.T) {
	analysistest.Run(t, fixture("v017"), patchbase.Analyzer, "./patchbase")
}
