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
