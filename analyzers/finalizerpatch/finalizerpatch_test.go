package finalizerpatch_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/finalizerpatch"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

// TestCurrent: controller-runtime v0.25 and client-go v0.37, with the
// suggested fixes and a helper package whose facts the fixture reads.
func TestCurrent(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("current"), finalizerpatch.Analyzer, "./finalizerpatch", "./finalizerpatch/kubeutil")
}

// TestLegacy: controller-runtime v0.18 and client-go v0.30.
func TestLegacy(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("legacy"), finalizerpatch.Analyzer, "./finalizerpatch")
}

// TestV017: controller-runtime v0.5, whose MergeFrom takes a
// runtime.Object and whose MergeFromWithOptimisticLock already exists.
func TestV017(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("v017"), finalizerpatch.Analyzer, "./finalizerpatch")
}
