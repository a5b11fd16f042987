package sharedowner_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/sharedowner"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentClientGo(t *testing.T) {
	analysistest.Run(t, fixture("current"), sharedowner.Analyzer, "./sharedowner", "./sharedowner/ownerref")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), sharedowner.Analyzer, "./sharedowner", "./sharedowner/ownerref")
}

// TestClientGo017: typed clients before context arguments (client-go v0.17).
func TestClientGo017(t *testing.T) {
	analysistest.Run(t, fixture("v017"), sharedowner.Analyzer, "./sharedowner")
}
