package tombstone_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/tombstone"
)

// The fixtures are modules that require the real client-go: "current" the
// newest release (typed handlers, DeletedObject[T]), "legacy" one more than
// two years older. `make testdata` downloads their modules; analysistest
// runs with GOPROXY=off.
func fixture(name string) string {
	return filepath.Join("..", "..", "testdata", "src", name)
}

func TestCurrentClientGo(t *testing.T) {
	analysistest.Run(t, fixture("current"), tombstone.Analyzer, "./tombstone")
}

func TestLegacyClientGo(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), tombstone.Analyzer, "./tombstone")
}

func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture("current"), tombstone.Analyzer, "./tombstonefix")
}
