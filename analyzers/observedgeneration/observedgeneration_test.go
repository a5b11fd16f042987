package observedgeneration_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/observedgeneration"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

// TestCurrent: client-go v0.37 and controller-runtime v0.25, with the
// suggested fixes.
func TestCurrent(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("current"), observedgeneration.Analyzer, "./observedgeneration")
}

// TestLegacy: client-go v0.30 and controller-runtime v0.18.
func TestLegacy(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("legacy"), observedgeneration.Analyzer, "./observedgeneration")
}
