package suppression_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/suppression"
)

func TestCurrent(t *testing.T) {
	analysistest.Run(t, filepath.Join("..", "..", "testdata", "src", "current"), suppression.Analyzer, "./suppression")
}
