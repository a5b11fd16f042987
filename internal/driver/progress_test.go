package driver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// The front end is told how far a run has got, in order and one call at a
// time: the listing (building export data only on the streaming path), then
// counts that only grow and end complete, with the result cache's roots
// counted as done, in a run that takes everything from the cache as in one
// that takes part of it.
func TestProgress(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a/a.go":     "package a\n\nimport (\n\t\"fmt\"\n\t\"example.com/m/lib\"\n)\n\nfunc A() { fmt.Println(); lib.L() }\n",
		"b/b.go":     "package b\n\nimport \"strings\"\n\nfunc B() string { return strings.ToUpper(\"b\") }\n",
		"lib/lib.go": "package lib\n\nfunc L() {}\n",
	})
	cfg := driver.Config{CacheDir: t.TempDir()}
	record := func(name string) []driver.Progress {
		t.Helper()
		var got []driver.Progress
		inCall := false
		cfg.Progress = func(p driver.Progress) {
			if inCall {
				t.Errorf("%s: told concurrently", name)
			}
			inCall = true
			got = append(got, p)
			inCall = false
		}
		if _, err := analyze(t, dir, cfg); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) == 0 {
			t.Fatalf("%s: told nothing", name)
		}
		for i := 1; i < len(got); i++ {
			prev, p := got[i-1], got[i]
			if p.Decoded < prev.Decoded && p.Stage == prev.Stage || p.Analysed < prev.Analysed || p.Stage < prev.Stage && p.Stage != driver.Listing {
				t.Errorf("%s: went back from %+v to %+v", name, prev, p)
			}
		}
		last := got[len(got)-1]
		if last.Stage != driver.Analysing || last.Analysed != last.Roots || last.Decoded != last.ToDecode || last.Listed < 3 {
			t.Errorf("%s: last %+v, want every root analysed and every dependency decoded", name, last)
		}
		t.Logf("%s: %d updates, last %+v", name, len(got), last)
		return got
	}
	exported := func(ps []driver.Progress) bool {
		for _, p := range ps {
			if p.Stage == driver.Listing && p.Export {
				return true
			}
		}
		return false
	}

	// A new cache directory: no look-up, one listing that builds.
	got := record("uncached")
	if got[0].Stage != driver.Listing || !got[0].Export {
		t.Errorf("uncached: first %+v, want the listing that builds export data", got[0])
	}
	last := got[len(got)-1]
	if last.Roots != 3 || last.Cached != 0 || last.ToDecode < 2 {
		t.Errorf("uncached: last %+v, want 3 roots, none cached, fmt and strings decoded at least", last)
	}

	// Everything cached: the look-up's listing only.
	got = record("cached")
	if exported(got) {
		t.Errorf("cached: the go command was asked to build export data: %+v", got)
	}
	if last := got[len(got)-1]; last.Roots != 3 || last.Cached != 3 || last.ToDecode != 0 {
		t.Errorf("cached: last %+v, want 3 roots from the cache and nothing decoded", last)
	}

	// One package changed: two from the cache, one analysed.
	if err := os.WriteFile(filepath.Join(dir, "b", "b.go"), []byte("package b\n\nimport \"strings\"\n\nfunc B() string { return strings.ToLower(\"b\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got = record("one changed")
	if !exported(got) {
		t.Errorf("one changed: no listing with export data: %+v", got)
	}
	if last := got[len(got)-1]; last.Roots != 3 || last.Cached != 2 {
		t.Errorf("one changed: last %+v, want 3 roots, 2 of them cached", last)
	}
}

// Progress is told from the decoder and from every worker: the calls
// must still come one at a time. A run with many roots and two workers at
// least makes overlapping calls likely, and the race detector sees them.
func TestProgressSerialised(t *testing.T) {
	files := map[string]string{}
	for i := range 8 {
		files[fmt.Sprintf("p%d/p.go", i)] = fmt.Sprintf("package p%d\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc F() { fmt.Println(strings.ToUpper(\"x\")) }\n", i)
	}
	dir := testanalyzers.WriteModule(t, files)
	inCall, calls := 0, 0
	cfg := driver.Config{Progress: func(driver.Progress) {
		inCall++
		if inCall > 1 {
			t.Error("told concurrently")
		}
		calls++
		inCall--
	}}
	if _, err := analyze(t, dir, cfg); err != nil {
		t.Fatal(err)
	}
	if calls < 8 {
		t.Errorf("%d calls for 8 roots", calls)
	}
}
