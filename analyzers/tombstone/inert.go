package tombstone

import (
	"go/types"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// inertFuncs are the library functions and methods that only describe the
// values they are given, as "path.Recv.Name" (kube.InertKey): kube's
// table of logging and reporting calls (kube.IsInert), which tombstone
// reads as: a tombstone passed to one stays unhandled.
var inertFuncs = kube.InertFuncs()

// isInert reports whether fn is a library function or method that only
// describes its arguments (logs, formats, counts them): passing a value to
// it neither changes, unwraps, retains nor acts on the value. Unknown
// functions, and every function of the analysed code, are not inert.
func isInert(fn *types.Func) bool {
	return kube.IsInert(fn)
}
