package driver

import (
	"context"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/lend"
)

// Analyze loads the packages and runs the analyzers on them: it lists
// the packages, takes what the result cache holds for them, analyses the
// others, and stores their findings in the cache.
//
// If some packages cannot be loaded or type-checked, the error is a
// *LoadError and the result holds the findings of the packages that
// could be analysed: one broken package should not hide what is wrong in
// the others, but callers must still treat the run as failed.
func Analyze(ctx context.Context, cfg *Config) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return &Result{}, err
	}
	withProgress := *cfg
	withProgress.progress = newProgress(cfg.Progress)
	cfg = &withProgress
	cache := openCache(ctx, cfg, time.Now())
	defer cache.get()

	res := &Result{}
	toAnalyse := *cfg
	var keyedBy map[string]*packages.Package // keys from a listing of their own
	if c := cache.used(); c != nil {
		missed, byID, ok := lookUp(ctx, cfg, c, res)
		if ok && len(missed) == 0 {
			finding.Sort(res.Findings)
			return res, nil
		}
		if ok {
			// Something changed since a run stored results: most likely
			// the user edited a package, which the go command would
			// compile again, with its test variant and test main, only
			// for its export data, that nothing reads but its importers
			// among the roots (load/split.go). A run without results
			// stored (CI's, a new build's) lists as before: it costs one
			// listing less, and compiles the roots the first time only.
			toAnalyse.Patterns, keyedBy = missed, byID
			toAnalyse.sources = load.SourceRoots
		}
	}

	var stored atomic.Bool
	fresh, err := analyzeStreaming(ctx, &toAnalyse, func(p *packages.Package, r *Result) {
		c := cache.get()
		if c == nil || len(r.Errors) > 0 {
			return
		}
		if keyedBy != nil {
			// Keyed from the look-up's listing, which names the same
			// packages by the same IDs.
			if p = keyedBy[p.ID]; p == nil {
				return
			}
		}
		if c.Keyed(p) && c.Put(p, r.Findings, r.Limits, r.parsed) {
			stored.Store(true)
		}
	})
	if stored.Load() {
		cache.get().MarkUsed()
	}
	if _, ok := err.(*LoadError); err != nil && !ok {
		return res, err
	}
	res.Findings = finding.Dedup(append(res.Findings, fresh.Findings...))
	res.Errors = fresh.Errors
	var limits lend.Limits // the cached packages' and the analysed ones'
	limits.Add(res.Limits...)
	limits.Add(fresh.Limits...)
	res.Limits = limits.All()
	res.addParsed(fresh.parsed)
	finding.Sort(res.Findings)
	return res, err
}
