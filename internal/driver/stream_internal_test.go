package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// A run cancelled before or while roots are analysed stops, whatever
// the decoder and the workers were waiting for, and says why.
func TestStreamRootsCancelled(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "current"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall}, Env: append(os.Environ(), "GOPROXY=off")}
	for _, sources := range []load.Sources{load.NoSources, load.SourceRoots} {
		t.Run(fmt.Sprint("sources=", sources), func(t *testing.T) { testStreamRootsCancelled(t, cfg, sources) })
	}
}

func testStreamRootsCancelled(t *testing.T, cfg *Config, sources load.Sources) {
	l, err := load.List(context.Background(), cfg.loadOptions(), sources)
	if err != nil {
		t.Fatal(err)
	}
	if sources != load.NoSources && len(l.Source) == 0 {
		t.Fatal("no source roots")
	}
	if len(l.Roots) < 3 {
		t.Fatalf("%d roots: too few to cancel in between", len(l.Roots))
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := streamRoots(cancelled, cfg, l, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: error %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	analysed := 0
	_, err = streamRoots(ctx, cfg, l, func(*packages.Package, *Result) {
		mu.Lock()
		analysed++
		mu.Unlock()
		cancel()
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled after the first root: error %v", err)
	}
	if analysed == 0 || analysed > runtime.GOMAXPROCS(0) {
		t.Errorf("%d roots analysed after cancelling on the first", analysed)
	}
}
