package ownerkind_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/ownerkind"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentClientGo(t *testing.T) {
	analysistest.Run(t, fixture("current"), ownerkind.Analyzer, "./ownerkind/...")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), ownerkind.Analyzer, "./ownerkind/...")
}

func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("current"), ownerkind.Analyzer, "./ownerkindfix")
}
