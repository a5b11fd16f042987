package driver_test

import (
	"slices"
	"testing"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// The front end is told each phase of a run in order, once, Grown once
// per dependency decoded, and Done whatever happened, so that what it
// changed for the run (the command: the collector) is given back.
func TestPhases(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go":   "package m\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc F() { fmt.Println(strings.ToUpper(\"x\")) }\n",
		"b/b.go": "package b\n\nfunc bad() {}\n\nfunc B() { bad() }\n",
	})
	check := func(name string, got []driver.Phase, listed bool) {
		t.Helper()
		if !listed {
			if !slices.Equal(got, []driver.Phase{driver.Loading, driver.Done}) {
				t.Errorf("%s: phases %v, want Loading, Done", name, got)
			}
			return
		}
		grown := 0
		for _, p := range got {
			if p == driver.Grown {
				grown++
			}
		}
		want := []driver.Phase{driver.Loading}
		for range grown {
			want = append(want, driver.Grown)
		}
		want = append(want, driver.Decoded, driver.Done)
		if grown < 2 || !slices.Equal(got, want) {
			t.Errorf("%s: phases %v, want Loading, Grown for each of fmt and strings (at least), Decoded, Done", name, got)
		}
	}
	for _, tc := range []struct {
		name     string
		cache    bool
		patterns []string
		listed   bool
	}{
		{"uncached", false, nil, true},
		{"new cache", true, nil, true},
		{"nothing matched", false, []string{"./nosuch/..."}, false},
	} {
		var got []driver.Phase
		cfg := driver.Config{Patterns: tc.patterns, Phases: func(p driver.Phase) { got = append(got, p) }}
		if tc.cache {
			cfg.CacheDir = t.TempDir()
		}
		_, err := analyze(t, dir, cfg)
		if tc.listed && err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		check(tc.name, got, tc.listed)
	}
}
