package conflictretry_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/conflictretry"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentClientGo(t *testing.T) {
	analysistest.Run(t, fixture("current"), conflictretry.Analyzer, "./conflictretry")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), conflictretry.Analyzer, "./conflictretry")
}

// TestClientGo017: typed clients before context arguments (client-go v0.17).
func TestClientGo017(t *testing.T) {
	analysistest.Run(t, fixture("v017"), conflictretry.Analyzer, "./conflictretry")
}
