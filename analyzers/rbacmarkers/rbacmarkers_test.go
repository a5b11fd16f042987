package rbacmarkers_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/rbacmarkers"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrent(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("current"), rbacmarkers.Analyzer, "./rbacmarkers/...")
}

func TestLegacy(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("legacy"), rbacmarkers.Analyzer, "./rbacmarkers/...")
}

// TestV017: controller-runtime v0.5, whose client takes runtime.Object and
// whose watches take a &source.Kind{} literal.
func TestV017(t *testing.T) {
	analysistest.Run(t, fixture("v017"), rbacmarkers.Analyzer, "./rbacmarkers/...")
}
