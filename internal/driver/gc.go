package driver

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The heap the collector aims at while roots are analysed: a quarter more
// than is live once the dependencies are decoded, and no less than gcFloor.
const gcFloor = 256 << 20

var gcTarget struct {
	sync.Mutex
	n       int // streaming runs under way
	percent int // the setting they replaced
}

// setGCTarget sets the garbage collector's target for the analysis of the
// roots, and returns the function that restores it. By then most of the
// live heap is the dependencies' decoded export data, which stays until the
// run ends; GOGC's rule, collect when the heap has grown by as much as is
// live, makes the headroom a multiple of that data instead of what the
// roots in flight need. Measured with -cache=false: on kubernetes'
// pkg/controller (about 250 MB live after decoding) GOGC=100 lets the peak
// RSS reach 630 MB, and a quarter of headroom keeps it near 400 MB for a
// few percent more CPU; on controller-runtime and prometheus-operator (60
// to 80 MB live) GOGC=100 makes the collector take a third of the run's
// CPU, and letting the heap reach 256 MB before collecting saves 15 to 20%
// of the wall time, at 250 to 340 MB peak RSS. The setting is made once but
// applies to the live heap at each collection, which grows while packages
// are analysed: it is capped at 300, or the standard library (14 MB live
// after decoding) would peak at 800 MB. A GOGC the user set is left alone.
func setGCTarget() (restore func()) {
	gcTarget.Lock()
	defer gcTarget.Unlock()
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	if gcTarget.n == 0 {
		gcTarget.percent = debug.SetGCPercent(gcPercent(liveHeap()))
	}
	gcTarget.n++
	return func() {
		gcTarget.Lock()
		defer gcTarget.Unlock()
		gcTarget.n--
		if gcTarget.n == 0 {
			debug.SetGCPercent(gcTarget.percent)
		}
	}
}

// gcPercent is the GOGC that makes the collector aim at the target above
// when live bytes are live.
func gcPercent(live uint64) int {
	if live == 0 {
		return 100
	}
	target := max(live+live/4, gcFloor)
	return int(min(300, max(25, (target-live)*100/live)))
}

// liveHeap is the heap the last collection found live (0 before the
// first): decoding the dependencies runs several.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
