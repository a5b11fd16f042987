package listerbypass_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/listerbypass"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentClientGo(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("current"), listerbypass.Analyzer, "./listerbypass", "./listerbypass/podgc", "./listerbypass/nodelifecycle", "./listerbypass/operator", "./listerbypass/nodeutil", "./listerbypass/nodestatus")
}

// TestAll: with -listerbypass.all, uncached reads on the processing path
// are reported too (without it, samplecontroller.go's Secrets read shows
// they are not).
func TestAll(t *testing.T) {
	if err := listerbypass.Analyzer.Flags.Set("all", "true"); err != nil {
		t.Fatal(err)
	}
	defer listerbypass.Analyzer.Flags.Set("all", "false")
	analysistest.Run(t, fixture("current"), listerbypass.Analyzer, "./listerbypassall")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), listerbypass.Analyzer, "./listerbypass", "./listerbypass/operator", "./listerbypass/nodeutil", "./listerbypass/nodestatus")
}

// TestClientGo017: the API before context arguments (client-go v0.17).
func TestClientGo017(t *testing.T) {
	analysistest.Run(t, fixture("v017"), listerbypass.Analyzer, "./listerbypass/podgc", "./listerbypass/reconciler")
}
