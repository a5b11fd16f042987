package tombstone

import (
	"go/types"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// reportingPkgs are packages whose functions and methods only log, format
// or build errors: calling them changes nothing in the cluster or in the
// controller's own state.
var reportingPkgs = map[string]bool{
	"fmt":                                    true,
	"errors":                                 true,
	"log/slog":                               true,
	"k8s.io/klog/v2":                         true,
	"k8s.io/klog":                            true,
	"github.com/go-logr/logr":                true,
	kube.APIErrorsPkg:                        true,
	kube.PkgErrorsPkg:                        true,
	"golang.org/x/xerrors":                   true,
	"sigs.k8s.io/controller-runtime/pkg/log": true,
}

// reportingFuncs are the functions of other packages that only report.
var reportingFuncs = map[string]map[string]bool{
	kube.UtilRuntimePkg: {"HandleError": true, "HandleErrorWithContext": true, "HandleErrorWithLogger": true},
	"time":              {"Now": true, "Since": true},
}

// isReporting reports whether a call of fn only logs, formats, builds or
// tests errors, or reads the clock: code made only of such calls has no
// effect a lost event could have caused. Print functions of fmt that write
// to a stream count too; they change nothing a controller reconciles.
func isReporting(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	if reportingPkgs[path] {
		return true
	}
	return reportingFuncs[path][fn.Name()]
}
