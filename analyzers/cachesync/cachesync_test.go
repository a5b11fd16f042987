package cachesync_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/cachesync"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentClientGo(t *testing.T) {
	analysistest.Run(t, fixture("current"), cachesync.Analyzer, "./cachesync")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), cachesync.Analyzer, "./cachesync")
}
