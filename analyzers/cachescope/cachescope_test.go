package cachescope_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers/cachescope"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

var pkgs = []string{
	"./cachescope",
	"./cachescope/internal/controller",
	"./cachescope/scoped",
	"./cachescope/namespaced",
	"./cachescope/single",
	"./cachescope/lib",
	"./cachescope/opaque",
	"./cachescope/selector",
	"./cachescope/filtered",
	"./cachescope/filtered/internal/konnect",
	"./cachescope/filtered/internal/tls",
	"./cachescope/filtered/restricted",
	"./cachescope/filtered/wanted",
	"./cachescope/filtered/lws",
}

// TestCurrent: controller-runtime v0.25.
func TestCurrent(t *testing.T) {
	analysistest.Run(t, fixture("current"), cachescope.Analyzer, pkgs...)
}

// TestLegacy: controller-runtime v0.18.
func TestLegacy(t *testing.T) {
	analysistest.Run(t, fixture("legacy"), cachescope.Analyzer, pkgs...)
}
