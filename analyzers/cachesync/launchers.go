package cachesync

import (
	"go/types"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// workerLauncher reports whether fn runs a function it is given on a
// goroutine of its own or in a loop until stopped — the ways a controller
// starts its workers besides a go statement — and which parameter (counted
// without the receiver) holds that function: apimachinery's wait.Until,
// UntilWithContext, NonSlidingUntil*, JitterUntil*, BackoffUntil* and
// Forever; wait.Group's Start, StartWithChannel and StartWithContext;
// sync.WaitGroup's Go (Go 1.25); errgroup.Group's Go and TryGo.
func workerLauncher(fn *types.Func) (param int, ok bool) {
	if fn == nil || fn.Pkg() == nil {
		return 0, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return 0, false
	}
	path, recv := fn.Pkg().Path(), ""
	if sig.Recv() != nil {
		_, recv = kube.PathName(sig.Recv().Type())
	}
	switch {
	case kube.IsWaitLoop(fn):
	case path == kube.WaitPkg && recv == "Group" && (fn.Name() == "Start" || fn.Name() == "StartWithChannel" || fn.Name() == "StartWithContext"):
	case path == "sync" && recv == "WaitGroup" && fn.Name() == "Go":
	case path == "golang.org/x/sync/errgroup" && recv == "Group" && (fn.Name() == "Go" || fn.Name() == "TryGo"):
	default:
		return 0, false
	}
	for i := range sig.Params().Len() {
		if _, isFunc := sig.Params().At(i).Type().Underlying().(*types.Signature); isFunc {
			return i, true
		}
	}
	return 0, false
}
