package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestGCPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, 100},        // nothing measured yet: the default
		{256 * mb, 25},  // kubernetes' pkg/controller: a quarter of headroom
		{1024 * mb, 25}, // bigger still: the same quarter
		{64 * mb, 300},  // controller-runtime: collect at 256 MB
		{200 * mb, 28},  // just under the floor's reach: 256 MB
		{16 * mb, 300},  // a small run: capped, since what is live grows as packages are analysed
	} {
		if got := gcPercent(tc.live); got != tc.want {
			t.Errorf("gcPercent(%d MB) = %d, want %d", tc.live/mb, got, tc.want)
		}
	}
}

// gcSettings reads the collector's GOGC and memory limit.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// A run loads with GOGC=300 under a memory limit, analyses with the
// percentage gcPercent gives, and gives the settings back when the last
// of the runs under way ends.
func TestGCPhases(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("the user's settings are left alone")
	}
	runtime.GC() // so that something is measured live, and gcPercent is not the default
	percent, limit := gcSettings()
	first := startGC()
	second := startGC()
	if p, l := gcSettings(); p != loadPercent || l != gcFloor {
		t.Errorf("loading: GOGC %d, limit %d; want %d, %d", p, l, loadPercent, gcFloor)
	}
	first.grown()
	if _, l := gcSettings(); l < gcFloor || uint64(l) < 2*liveHeap() && uint64(l) != gcFloor {
		t.Errorf("limit %d after grown, live %d", l, liveHeap())
	}
	first.loaded()
	if p, l := gcSettings(); p < 25 || p > 300 || l != limit {
		t.Errorf("analysing: GOGC %d, limit %d; want 25..300, %d", p, l, limit)
	}
	first.stop()
	first.stop() // twice does nothing
	if p, _ := gcSettings(); p != gcPercent(liveHeap()) {
		t.Errorf("GOGC %d while a run is under way, want %d", p, gcPercent(liveHeap()))
	}
	second.stop()
	if p, l := gcSettings(); p != percent || l != limit {
		t.Errorf("after the runs: GOGC %d, limit %d; want %d, %d", p, l, percent, limit)
	}
}
