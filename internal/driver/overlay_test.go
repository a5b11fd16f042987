package driver_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// An overlay is analysed instead of the file, by Analyze (the streaming
// path) and by Load and Run (the editor's), and a run with one neither
// takes results from the cache nor leaves any there.
func TestOverlay(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a/a.go": "package a\n\nfunc bad() {}\n\nfunc A() { bad() }\n",
	})
	a, analysed := counting()
	cache := t.TempDir()
	onDisk := []string{"a/a.go:5:12-5:17: call of bad (badcall)"}
	inOverlay := []string{"a/a.go:6:2-6:7: call of bad (badcall)"}
	overlay := map[string][]byte{filepath.Join(dir, "a", "a.go"): []byte("package a\n\nfunc bad() {}\n\nfunc A() {\n\tbad()\n}\n")}

	run := func(overlay map[string][]byte) []string {
		t.Helper()
		res, err := analyze(t, dir, driver.Config{Analyzers: []*analysis.Analyzer{a}, CacheDir: cache, Overlay: overlay})
		if err != nil {
			t.Fatal(err)
		}
		return lines(dir, res.Findings)
	}
	if got := run(nil); !slices.Equal(got, onDisk) {
		t.Fatalf("from disk: %v, want %v", got, onDisk)
	}
	analysed()
	if got := run(overlay); !slices.Equal(got, inOverlay) {
		t.Errorf("with the overlay: %v, want %v", got, inOverlay)
	}
	if got := analysed(); len(got) != 1 {
		t.Errorf("with the overlay, analysed %v: the cache's results are of the disk", got)
	}
	if got := run(nil); !slices.Equal(got, onDisk) {
		t.Errorf("from disk after the overlay: %v, want %v (the cache kept the overlay's)", got, onDisk)
	}

	cfg := &driver.Config{Dir: dir, Patterns: []string{"./a"}, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall}, Overlay: overlay}
	pkgs, err := driver.Load(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := driver.Run(cfg, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(dir, res.Findings); !slices.Equal(got, inOverlay) {
		t.Errorf("Load and Run with the overlay: %v, want %v", got, inOverlay)
	}
}
