package handlerblocking_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/handlerblocking"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentClientGo(t *testing.T) {
	analysistest.Run(t, fixture("current"), handlerblocking.Analyzer, "./handlerblocking")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), handlerblocking.Analyzer, "./handlerblocking")
}

// TestClientGo017: typed clients before context arguments (client-go v0.17).
func TestClientGo017(t *testing.T) {
	analysistest.Run(t, fixture("v017"), handlerblocking.Analyzer, "./handlerblocking")
}
