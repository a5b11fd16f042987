package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/ctrllint/ctrllint/internal/driver"
)

// The collector's settings for an analysis run, in two phases. They are
// the command's to make: they are process-wide, and the driver, which the
// editor server and tests share, tells only which phase a run is in
// (driver.Config.Phases).
//
// Listing and decoding the dependencies builds a heap that is nearly all
// live and stays so until the run ends (the listing's packages, the
// decoded types). GOGC's rule, collect when the heap has doubled, then
// marks it over and over as it grows, slowing decoding, the run's
// critical path. While loading, the collector waits for the heap to
// quadruple (loadPercent), but no longer than until it reaches a memory
// limit of half as much again as is live, and at least gcFloor, raised as
// the live heap grows: the first roots are analysed while the rest is
// decoded, and a fixed limit let the peak grow.
//
// While roots are analysed most of the live heap is the dependencies'
// decoded export data; collecting when the heap has doubled would make
// the headroom a multiple of that data instead of what the roots in
// flight need. The collector aims at a quarter more than is live once the
// dependencies are decoded, and no less than gcFloor (gcPercent). The
// setting is made once but applies to the live heap at each collection,
// which grows while packages are analysed: it is capped, or a small run
// would let its heap grow many times over. docs/performance.md has the
// measurements behind each choice.
//
// A GOGC or GOMEMLIMIT the user set leaves the collector alone.
const (
	gcFloor     = 256 << 20
	loadPercent = 300
)

var gcState struct {
	sync.Mutex
	runs    int   // streaming runs under way
	percent int   // the settings they replaced
	limit   int64 // the memory limit they replaced
	loadCap int64 // the memory limit while loading, 0 when none is set
}

// gcRun is one streaming run's hold on the collector's settings.
type gcRun struct {
	active   bool // the run changed the settings
	analysis bool // the run is past loading
}

// gcPhases returns the hook that tunes the collector to a run's phases.
func gcPhases() func(driver.Phase) {
	var g *gcRun
	return func(p driver.Phase) {
		switch p {
		case driver.Loading:
			g = startGC()
		case driver.Grown:
			g.grown()
		case driver.Decoded:
			g.loaded()
		case driver.Done:
			g.stop()
		}
	}
}

// startGC sets the loading phase's settings.
func startGC() *gcRun {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return &gcRun{}
	}
	gcState.Lock()
	defer gcState.Unlock()
	if gcState.runs == 0 {
		gcState.percent = debug.SetGCPercent(loadPercent)
		gcState.limit = debug.SetMemoryLimit(gcFloor)
		gcState.loadCap = gcFloor
	}
	gcState.runs++
	return &gcRun{active: true}
}

// grown raises the loading phase's memory limit with the live heap, so
// that the collector does not run back to back under it.
func (g *gcRun) grown() {
	if !g.active || g.analysis {
		return
	}
	live := int64(liveHeap())
	gcState.Lock()
	defer gcState.Unlock()
	if limit := 2 * live; gcState.loadCap != 0 && limit > gcState.loadCap {
		gcState.loadCap = limit
		debug.SetMemoryLimit(limit)
	}
}

// loaded switches to the analysis phase's settings, for the live heap
// once the dependencies are decoded.
func (g *gcRun) loaded() {
	if !g.active || g.analysis {
		return
	}
	g.analysis = true
	gcState.Lock()
	defer gcState.Unlock()
	gcState.loadCap = 0
	debug.SetMemoryLimit(gcState.limit)
	debug.SetGCPercent(gcPercent(liveHeap()))
}

// stop gives back the settings when the last run ends.
func (g *gcRun) stop() {
	if !g.active {
		return
	}
	g.active = false
	gcState.Lock()
	defer gcState.Unlock()
	gcState.runs--
	if gcState.runs == 0 {
		gcState.loadCap = 0
		debug.SetGCPercent(gcState.percent)
		debug.SetMemoryLimit(gcState.limit)
	}
}

// gcPercent is the GOGC that makes the collector aim at the analysis
// phase's target when live bytes are live.
func gcPercent(live uint64) int {
	if live == 0 {
		return 100
	}
	target := max(live+live/4, gcFloor)
	return int(min(300, max(25, (target-live)*100/live)))
}

// liveHeap is the heap the last collection found live (0 before the
// first).
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
