package requeueerr_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/requeueerr"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

func TestCurrentControllerRuntime(t *testing.T) {
	analysistest.Run(t, fixture("current"), requeueerr.Analyzer, "./requeueerr")
}
