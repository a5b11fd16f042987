package driver_test

import (
	"testing"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// The front end is told each phase of a run in order, once, Grown once
// per dependency decoded or type-checked from source, and Done whatever happened, so that what it
// changed for the run (the command: the collector) is given back.
func TestPhases(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go":   "package m\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc F() { fmt.Println(strings.ToUpper(\"x\")) }\n",
		"b/b.go": "package b\n\nfunc bad() {}\n\nfunc B() { bad() }\n",
	})
	// Loading first and Done last, once each; Grown only before Decoded,
	// which comes at most once; with packages listed, Decoded comes and a
	// Grown for each dependency decoded (fmt and strings at least).
	check := func(name string, got []driver.Phase, listed bool) {
		t.Helper()
		bad := len(got) < 2 || got[0] != driver.Loading || got[len(got)-1] != driver.Done
		grown, decoded := 0, 0
		for _, p := range got[1 : len(got)-1] {
			switch p {
			case driver.Grown:
				grown++
				bad = bad || decoded > 0
			case driver.Decoded:
				decoded++
			default:
				bad = true
			}
		}
		bad = bad || decoded > 1 || listed && (decoded != 1 || grown < 2)
		if bad {
			t.Errorf("%s: phases %v (Loading=%d Grown=%d Decoded=%d Done=%d)", name, got, driver.Loading, driver.Grown, driver.Decoded, driver.Done)
		}
	}
	for _, tc := range []struct {
		name       string
		cache      bool
		patterns   []string
		listed     bool
		fromSource bool
	}{
		{"uncached", false, nil, true, false},
		{"new cache", true, nil, true, false},
		{"no such directory", false, []string{"./nosuch/..."}, false, false},
		{"go command fails", false, []string{"-badflag"}, false, false},
		// The dependencies type-checked from source are the heap that
		// stays, as decoded ones are: Decoded comes after the last.
		{"from source", false, nil, true, true},
	} {
		var got []driver.Phase
		cfg := driver.Config{Patterns: tc.patterns, FromSource: tc.fromSource, Phases: func(p driver.Phase) { got = append(got, p) }}
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
