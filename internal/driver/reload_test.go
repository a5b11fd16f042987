package driver

import (
	"context"
	"testing"
	"time"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// A kept load is reloaded only for the configuration it was loaded with,
// and only so many times before a load starts its file set afresh.
func TestReload(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"p/p.go": "package p\n\nfunc F() int { return 1 }\n",
	})
	testanalyzers.Age(t, dir)
	ctx := context.Background()
	cfg := &Config{Dir: dir, Patterns: []string{"./p"}}
	start := time.Now()
	pkgs, err := Load(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := Keep(ctx, cfg, pkgs, start)
	if err != nil || kept == nil {
		t.Fatalf("Keep: %v, %v", kept, err)
	}
	for _, other := range []*Config{
		{Dir: dir, Patterns: []string{"./p"}, Tests: true},
		{Dir: dir, Patterns: []string{"./p"}, Tags: []string{"x"}},
		{Dir: dir, Patterns: []string{"./..."}},
	} {
		if _, _, ok := Reload(other, kept); ok {
			t.Errorf("reloaded for %+v", other)
		}
	}
	for i := range maxReloads {
		if _, err, ok := Reload(cfg, kept); !ok || err != nil {
			t.Fatalf("reload %d: %v, %v", i, ok, err)
		}
	}
	if _, _, ok := Reload(cfg, kept); ok {
		t.Errorf("reloaded more than %d times", maxReloads)
	}
}
