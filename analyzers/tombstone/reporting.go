package tombstone

import (
	"go/types"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// isReporting reports whether a call of fn only logs, formats, builds or
// tests errors, or reads the clock: code made only of such calls has no
// effect a lost event could have caused. Print functions of fmt that write
// to a stream count too; they change nothing a controller reconciles.
//
// kube's tables say which packages log and which build errors; the rest
// is this analyzer's policy: a harmless-drop proof also lets a sync test
// an error for NotFound, report one it cannot return, and time itself.
func isReporting(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch path := fn.Pkg().Path(); {
	case kube.IsLogPkg(path), kube.IsErrorPkg(path):
		return true
	case path == kube.APIErrorsPkg, path == "golang.org/x/xerrors":
		return true // errors built and tested, as by IsErrorPkg's packages
	case path == kube.UtilRuntimePkg:
		return kube.IsInert(fn) // HandleError and its kin, not HandleCrash
	}
	return kube.IsFunc(fn, "time", "Now") || kube.IsFunc(fn, "time", "Since")
}
