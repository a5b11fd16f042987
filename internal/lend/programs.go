package lend

import (
	"go/token"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// Creating the SSA packages of a package's imports is costly (go/ssa
// allocates a function for every method of every type an import declares,
// and the API packages declare thousands), and the packages of one run
// share their imports' types. So a program that built one package can
// build the next without creating those imports again, once nothing reads
// the first package's SSA any more: the driver says when by releasing the
// result (see Releaser).

// MaxUses bounds how many packages one program builds: a program keeps
// every package it built, so sharing trades memory for time
// (docs/performance.md has the measurement behind the figure).
const MaxUses = 16

// A Program is an SSA program lent to one package at a time.
type Program struct {
	Prog *ssa.Program
	fset *token.FileSet
	uses int
	from *Programs // nil if it was not borrowed from a pool
}

// Programs lends SSA programs to the packages of one run. The zero value
// is ready to use; a nil *Programs lends a new program every time.
type Programs struct {
	mu   sync.Mutex
	free []*Program
}

// Borrow returns a released program for packages of fset, or a new one.
// Released programs of another file set are dropped: they cannot hold
// this file set's packages.
func (ps *Programs) Borrow(fset *token.FileSet) *Program {
	if ps != nil {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		for len(ps.free) > 0 {
			p := ps.free[len(ps.free)-1]
			ps.free = ps.free[:len(ps.free)-1]
			if p.fset == fset {
				return p
			}
		}
	}
	return &Program{Prog: ssa.NewProgram(fset, ssa.BareInits), fset: fset, from: ps}
}

// Return gives p back to the pool it came from, once nothing reads the
// packages it built for its borrower. A program that has built MaxUses
// packages, or that came from no pool, is left to the collector.
func (p *Program) Return() {
	p.uses++
	if p.from == nil || p.uses >= MaxUses {
		return
	}
	p.from.mu.Lock()
	defer p.from.mu.Unlock()
	p.from.free = append(p.from.free, p)
}
