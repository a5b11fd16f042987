package statusupdate_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/statusupdate"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentClientGo(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("current"), statusupdate.Analyzer, "./statusupdate")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), statusupdate.Analyzer, "./statusupdate")
}

// TestClientGo017: typed clients before context arguments (client-go v0.17).
func TestClientGo017(t *testing.T) {
	analysistest.Run(t, fixture("v017"), statusupdate.Analyzer, "./statusupdate")
}
