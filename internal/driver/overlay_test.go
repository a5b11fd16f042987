package driver_test

import (
	"context"
	"fmt"
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

// An analyzer's pass.ReadFile reads a file of the overlay from there, in
// both paths: the text it parsed, which its fixes' offsets refer to (the
// analyzers type-check their fixes on it, edit.Checked; on the disk's text
// an editor's fix on an unsaved buffer was dropped).
func TestOverlayReadFile(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{"a/a.go": "package a\n\nfunc A() {}\n"})
	file := filepath.Join(dir, "a", "a.go")
	unsaved := "package a\n\n// unsaved\nfunc A() {}\n"
	reads := &analysis.Analyzer{
		Name: "reads",
		Doc:  "reads: reports the content pass.ReadFile gives for each file",
		Run: func(pass *analysis.Pass) (any, error) {
			for _, f := range pass.Files {
				b, err := pass.ReadFile(pass.Fset.File(f.Pos()).Name())
				pass.Reportf(f.Package, "read %q %v", b, err)
			}
			return nil, nil
		},
	}
	want := []string{fmt.Sprintf("a/a.go:1:1-1:1: read %q <nil> (reads)", unsaved)}
	overlay := map[string][]byte{file: []byte(unsaved)}
	res, err := analyze(t, dir, driver.Config{Analyzers: []*analysis.Analyzer{reads}, Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(dir, res.Findings); !slices.Equal(got, want) {
		t.Errorf("Analyze: %v, want %v", got, want)
	}
	cfg := &driver.Config{Dir: dir, Patterns: []string{"./a"}, Analyzers: []*analysis.Analyzer{reads}, Overlay: overlay}
	pkgs, err := driver.Load(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res, err = driver.Run(cfg, pkgs); err != nil {
		t.Fatal(err)
	}
	if got := lines(dir, res.Findings); !slices.Equal(got, want) {
		t.Errorf("Run: %v, want %v", got, want)
	}
}
