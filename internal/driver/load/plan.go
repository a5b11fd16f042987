package load

import (
	"math/bits"
	"slices"

	"golang.org/x/tools/go/packages"
)

// A Plan is the order of the streaming path's work.
type Plan struct {
	Order []*packages.Package // the packages to decode, in turn
	Roots []int               // the roots' indices, in the order to analyse them
	Need  []int               // by root: how many of Order it must wait for
}

// DecodePlan decides what to decode and in which order. What is decoded
// is every root's direct imports (the set go/packages decodes for Packages)
// and the packages of the graph whose path is in whole, but for the
// packages of source (Listing.Source), which their type-check provides. A root needs the
// decoded packages among its dependencies; roots needing fewer go first,
// and the decoding follows them, so that the first analyses start while
// the bulk of the graph is still being decoded.
func DecodePlan(roots []*packages.Package, whole []string, source map[string]bool) Plan {
	// Number the graph, dependencies first.
	var graph []*packages.Package
	index := make(map[*packages.Package]int)
	packages.Visit(roots, nil, func(p *packages.Package) {
		index[p] = len(graph)
		graph = append(graph, p)
	})
	decodes := newBitset(len(graph))
	for _, r := range roots {
		for _, imp := range r.Imports {
			if !source[imp.ID] {
				decodes.add(index[imp])
			}
		}
	}
	for i, p := range graph {
		if slices.Contains(whole, p.PkgPath) && !source[p.ID] {
			decodes.add(i)
		}
	}
	// deps[i]: the packages package i depends on, directly or not.
	deps := make([]bitset, len(graph))
	for i, p := range graph {
		deps[i] = newBitset(len(graph))
		for _, imp := range p.Imports {
			j := index[imp]
			deps[i].add(j)
			deps[i].or(deps[j])
		}
	}
	pl := Plan{Need: make([]int, len(roots))}
	needs := make([]bitset, len(roots))
	count := make([]int, len(roots))
	for i, r := range roots {
		needs[i] = deps[index[r]].and(decodes)
		count[i] = needs[i].count()
		pl.Roots = append(pl.Roots, i)
	}
	slices.SortStableFunc(pl.Roots, func(a, b int) int { return count[a] - count[b] })
	ordered := newBitset(len(graph))
	for _, i := range pl.Roots {
		for j := range graph {
			if needs[i].has(j) && !ordered.has(j) {
				ordered.add(j)
				pl.Order = append(pl.Order, graph[j])
			}
		}
		pl.Need[i] = len(pl.Order)
	}
	return pl
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) add(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

func (b bitset) or(c bitset) {
	for i := range b {
		b[i] |= c[i]
	}
}

func (b bitset) and(c bitset) bitset {
	out := make(bitset, len(b))
	for i := range b {
		out[i] = b[i] & c[i]
	}
	return out
}

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}
