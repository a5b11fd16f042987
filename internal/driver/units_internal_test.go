package driver

import (
	"slices"
	"testing"
)

// A wait for a root's types is never dropped to break a cycle: the facts
// waits on the cycle are, whichever the walk meets first.
func TestBreakCyclesKeepsTypedWaits(t *testing.T) {
	units := []unit{
		{facts: []int{1}, deps: []int{1}}, // 0 reads 1's facts
		{deps: []int{0}},                  // 1 imports root 0
		{facts: []int{3}, deps: []int{3}}, // 2 and 3 read each other's facts
		{facts: []int{2}, deps: []int{2}},
		{facts: []int{0}, deps: []int{0, 4}}, // 4 imports itself by path: a variant
	}
	typed := []map[int]bool{nil, {0: true}, nil, nil, nil}
	breakCycles(units, typed)
	want := [][]int{{}, {0}, {3}, {}, {0}}
	for i, u := range units {
		if !slices.Equal(u.deps, want[i]) && !(len(u.deps) == 0 && len(want[i]) == 0) {
			t.Errorf("unit %d waits for %v, want %v", i, u.deps, want[i])
		}
		for _, j := range u.facts {
			if !slices.Contains(u.deps, j) {
				t.Errorf("unit %d reads the facts of %d without waiting for it", i, j)
			}
		}
	}
	if left := cycles(units); left != nil {
		t.Errorf("units %v still wait on a cycle", left)
	}
}
