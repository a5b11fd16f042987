package forget_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/forget"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentClientGo(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("current"), forget.Analyzer, "./forget")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("legacy"), forget.Analyzer, "./forget")
}

// TestClientGo017: the untyped queue and typed clients before context
// arguments (client-go v0.17).
func TestClientGo017(t *testing.T) {
	analysistest.Run(t, fixture("v017"), forget.Analyzer, "./forget")
}
