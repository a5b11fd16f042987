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

// TestCallerWaits: a package that never mentions cache sync leaves the
// wait to a caller the analyzer cannot see; its unguarded Run is not
// reported (the same Run in a package that keeps HasSynced is, in
// ./cachesync).
func TestCallerWaits(t *testing.T) {
	analysistest.Run(t, fixture("current"), cachesync.Analyzer, "./cachesync/callerwaits")
}

// TestWaitAPI: a package whose exported WaitForCacheSync nothing in the
// package calls leaves the wait to its caller, through that method (the
// shape of k8s.io/apiserver's peerproxy): a Run that never waits is not
// reported.
func TestWaitAPI(t *testing.T) {
	analysistest.Run(t, fixture("current"), cachesync.Analyzer, "./cachesync/waitapi")
}

// TestPartialWait: a wait that leaves out informers the controller sets
// up, in a package whose factory waits (which cover informers no field
// names) cannot hide it.
func TestPartialWait(t *testing.T) {
	analysistest.Run(t, fixture("current"), cachesync.Analyzer, "./cachesync/partialwait")
	analysistest.Run(t, fixture("legacy"), cachesync.Analyzer, "./cachesync/partialwait")
}
