package cachemutation_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/cachemutation"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentClientGo(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("current"), cachemutation.Analyzer,
		"./cachemutation", "./cachemutation/kubeclient", "./cachemutation/podutil")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), cachemutation.Analyzer,
		"./cachemutation", "./cachemutation/kubeclient", "./cachemutation/podutil")
}
