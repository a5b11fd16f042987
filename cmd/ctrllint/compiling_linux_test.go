package main

import "testing"

func TestParentOf(t *testing.T) {
	for stat, want := range map[string]int{
		"4242 (go) S 4200 4242 4200 0 -1":          4200,
		"4243 (a (b) c) R 17 4243 17 0 -1 4194560": 17, // a command name with spaces and parentheses
		"garbage": -1,
		"1 (x) S": -1,
	} {
		got, ok := parentOf([]byte(stat))
		if !ok {
			got = -1
		}
		if got != want {
			t.Errorf("%q: %d, want %d", stat, got, want)
		}
	}
}
