package driver

import (
	"context"
	"slices"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/driver/resultcache"
)

// fileArgumentsPath is the go command's path for the package that .go
// files named as arguments make.
const fileArgumentsPath = "command-line-arguments"

// opening is the result cache of a run, being opened: opening runs `go
// env` and hashes the executable, which the keys need.
type opening struct {
	known bool // some run of this executable used the cache directory
	done  chan struct{}
	cache *resultcache.Cache // nil if it could not be opened (go env failed)
}

// openCache opens cfg's result cache, nil when the run has none. When no
// run of this executable used the cache (a new build, a new cache
// directory: CI's usual case), nothing in it can be for this run, so
// nothing is looked up and the opening goes on alongside the listing
// instead of before it (docs/performance.md).
func openCache(ctx context.Context, cfg *Config, start time.Time) *opening {
	if cfg.CacheDir == "" || len(cfg.Patterns) == 0 || len(cfg.Overlay) > 0 {
		return nil
	}
	o := &opening{known: resultcache.Known(cfg.CacheDir), done: make(chan struct{})}
	open := func() {
		defer close(o.done)
		o.cache, _ = resultcache.Open(ctx, &resultcache.Options{Dir: cfg.CacheDir, Load: cfg.loadOptions(), Analyzers: cfg.Analyzers, SummaryImports: cfg.SummaryImports}, start)
	}
	if o.known {
		open()
	} else {
		go open()
	}
	return o
}

// get waits for the cache to be open and returns it, nil if there is
// none. It is also how Analyze waits for the go command the opening runs,
// so as to leave no child process behind, whatever happened.
func (o *opening) get() *resultcache.Cache {
	if o == nil {
		return nil
	}
	<-o.done
	return o.cache
}

// used returns the cache if some run stored results there under this
// run's shared key, so that looking packages up may hit; nil otherwise.
func (o *opening) used() *resultcache.Cache {
	if o == nil || !o.known {
		return nil
	}
	if c := o.get(); c != nil && c.Used() {
		return c
	}
	return nil
}

// lookUp lists cfg's packages without export data (a run over unchanged
// packages must not pay for building any), adds the findings of those in
// the cache to res, and returns the patterns that name the others, with
// the listed packages by ID, which their keys were computed for. ok is
// false when the listing failed or a key could not be computed: then
// every package is analysed.
func lookUp(ctx context.Context, cfg *Config, c *resultcache.Cache, res *Result) (missed []string, keyedBy map[string]*packages.Package, ok bool) {
	cfg.progress.listing(false)
	roots, err := load.ListForKeys(ctx, cfg.loadOptions())
	if err != nil {
		return nil, nil, false
	}
	for _, p := range roots {
		if !c.Keyed(p) {
			return nil, nil, false
		}
	}
	keyedBy = make(map[string]*packages.Package, len(roots))
	hits := 0
	for _, p := range roots {
		keyedBy[p.ID] = p
		if fs, limits, hit := c.Get(p); hit {
			res.Findings = append(res.Findings, fs...)
			res.Limits = append(res.Limits, limits...)
			res.addParsed(c.Hashes(p))
			hits++
		} else if p.PkgPath == fileArgumentsPath {
			// Only the files name this package again; the go command
			// allows no other pattern beside them.
			missed = append(missed, cfg.Patterns...)
		} else if p.ForTest != "" {
			missed = append(missed, p.ForTest) // loads p_test [p.test] too
		} else {
			missed = append(missed, p.PkgPath)
		}
	}
	cfg.progress.update(func(pr *Progress) {
		pr.Stage, pr.Listed = Analysing, graphSize(roots)
		pr.Roots, pr.Analysed, pr.Cached = hits, hits, hits
	})
	return slices.Compact(slices.Sorted(slices.Values(missed))), keyedBy, true
}
