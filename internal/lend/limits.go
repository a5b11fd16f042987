package lend

import (
	"cmp"
	"go/token"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// An analyzer that bounds a search (how deep it follows calls) gives up
// where the bound cuts it off, and its result there is the cautious one: a
// finding it could not disprove, a fact it could not establish. That is
// not a finding about the user's code, so it is no diagnostic; but a user
// asking why (ctrllint -v) should be told that a bound, not the code,
// decided. The run collects such notes; front ends that lend nothing (go
// vet, golangci-lint, the editor server) drop them.

// A Limit is a bound of an analysis reached in one package.
type Limit struct {
	Analyzer string
	Package  string // import path
	Pos      token.Position
	What     string // the bound and what it cut off
}

// Limits are the bounds reached in the packages of a run. The zero value
// is ready to use; a nil *Limits keeps nothing.
type Limits struct {
	mu   sync.Mutex
	seen map[Limit]bool
}

// LimitHit notes that pass's analyzer reached a bound at pos, when the
// front end lends a run; otherwise it does nothing. A bound reached twice
// at the same place is noted once.
func LimitHit(pass *analysis.Pass, pos token.Pos, what string) {
	run := Of(pass)
	if run == nil || run.Limits == nil {
		return
	}
	run.Limits.Add(Limit{Analyzer: pass.Analyzer.Name, Package: pass.Pkg.Path(), Pos: pass.Fset.PositionFor(pos, false), What: what})
}

// Add notes limits, each once however often it is added.
func (ls *Limits) Add(limits ...Limit) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.seen == nil {
		ls.seen = make(map[Limit]bool)
	}
	for _, l := range limits {
		ls.seen[l] = true
	}
}

// In returns the limits noted in the package with the given import path,
// in All's order: what the result cache keeps with that package's
// findings.
func (ls *Limits) In(pkgPath string) []Limit {
	return slices.DeleteFunc(ls.All(), func(l Limit) bool { return l.Package != pkgPath })
}

// All returns the limits noted, by package, position and analyzer.
func (ls *Limits) All() []Limit {
	if ls == nil {
		return nil
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	out := make([]Limit, 0, len(ls.seen))
	for l := range ls.seen {
		out = append(out, l)
	}
	slices.SortFunc(out, func(x, y Limit) int {
		return cmp.Or(cmp.Compare(x.Package, y.Package), cmp.Compare(x.Pos.Filename, y.Pos.Filename),
			cmp.Compare(x.Pos.Offset, y.Pos.Offset), cmp.Compare(x.Analyzer, y.Analyzer), cmp.Compare(x.What, y.What))
	})
	return out
}
