package driver

import (
	"sync"

	"golang.org/x/tools/go/packages"
)

// Progress is how far a run has got, as Config.Progress is told of it:
// the whole state each time, so that a front end keeps only the last one.
// Decoding and analysing overlap (stream.go): the first roots are analysed
// while the rest of the dependencies are decoded.
type Progress struct {
	Stage Stage
	// Export is set while listing when the go command builds the export
	// data of what its build cache lacks (the streaming path's listing),
	// the part of a cold run that takes minutes and prints nothing; the
	// result cache's look-up lists without building anything.
	Export bool
	// Listed is how many packages the last listing found, the roots and
	// their whole dependency graph, set as the stage becomes Analysing.
	Listed int
	// Decoded of ToDecode dependencies are decoded from export data.
	Decoded, ToDecode int
	// Analysed of Roots are done, Cached of them taken from the result
	// cache. A root that could not be type-checked counts as done. The
	// packages of the analysed modules analysed only for their facts are
	// not counted: they are not what the user asked about. When the cache
	// had only some roots, listing the others can bring back one it had
	// (p_test, listed again with "p [p.test]"): that one counts twice.
	Analysed, Roots, Cached int
	// Summaries is how many packages of the analysed modules the run
	// analyses for their facts only (summary units).
	Summaries int
	// FromSource is how many dependencies the run type-checks from source
	// for their importers, the go command not having built them
	// (load.Unbuilt); they are not among ToDecode.
	FromSource int
}

// A Stage is what a run is doing, as Progress says.
type Stage int

const (
	// Listing: the go command is listing the packages.
	Listing Stage = iota
	// Analysing: the dependencies are decoded and the roots analysed, or
	// taken from the result cache. When the cache had only some of them, the
	// others are listed again, with export data: Listing follows.
	Analysing
)

// progress keeps a run's Progress and tells Config.Progress of each
// change, one call at a time: the decoder and the workers change it
// concurrently, and a front end should not have to care.
type progress struct {
	mu   sync.Mutex
	p    Progress
	tell func(Progress)
}

// newProgress returns nil when nobody is told: its methods then do nothing.
func newProgress(tell func(Progress)) *progress {
	if tell == nil {
		return nil
	}
	return &progress{tell: tell}
}

// update changes the state and tells the front end, with the lock held so
// that it sees the changes in order.
func (t *progress) update(change func(p *Progress)) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	change(&t.p)
	t.tell(t.p)
}

// listing: the go command starts listing.
func (t *progress) listing(export bool) {
	t.update(func(p *Progress) { p.Stage, p.Export = Listing, export })
}

// graphSize is how many packages roots and their dependencies are.
func graphSize(roots []*packages.Package) int {
	n := 0
	packages.Visit(roots, nil, func(*packages.Package) { n++ })
	return n
}
