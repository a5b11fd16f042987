package clientperreconcile_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/clientperreconcile"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrent(t *testing.T) {
	analysistest.Run(t, fixture("current"), clientperreconcile.Analyzer, "./clientperreconcile")
}

// TestLegacy: client-go v0.30 (untyped work queue) and controller-runtime
// v0.18.
func TestLegacy(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), clientperreconcile.Analyzer, "./clientperreconcile")
}
