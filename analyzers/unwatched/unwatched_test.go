package unwatched_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/unwatched"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

var pkgs = []string{"./unwatched", "./unwatched/services", "./unwatched/silent", "./unwatched/unwritten", "./unwatched/filter", "./unwatched/helped", "./unwatched/handedon", "./unwatched/periodic", "./unwatched/configured"}

// TestCurrent: controller-runtime v0.25 (TypedBuilder, source.Kind as a
// function, WatchesRawSource).
func TestCurrent(t *testing.T) {
	analysistest.Run(t, fixture("current"), unwatched.Analyzer, pkgs...)
}

// TestLegacy: controller-runtime v0.18.
func TestLegacy(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), unwatched.Analyzer, pkgs...)
}

// TestV017: controller-runtime v0.5, whose Watches takes a source.Kind
// struct.
func TestV017(t *testing.T) {
	analysistest.Run(t, fixture("v017"), unwatched.Analyzer, "./unwatched")
}
