package queuedone_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/queuedone"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentClientGo(t *testing.T) {
	analysistest.Run(t, fixture("current"), queuedone.Analyzer, "./queuedone")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), queuedone.Analyzer, "./queuedone")
}
