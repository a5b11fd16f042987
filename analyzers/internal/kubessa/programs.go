package kubessa

import (
	"go/token"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// Creating the SSA packages of a package's imports was a fifth of a cold
// run's CPU on controller-runtime: go/ssa allocates a function for every
// method of every type an import declares, and the API packages declare
// thousands. Only the imports whose functions or variables the package
// names are created now (referenced), and the packages of one run share
// their imports' types, so a program that built one package can build the
// next without creating those imports again — once nothing reads the first
// package's SSA any more. The
// driver says when that is by calling Release on the result after the
// package's analyzers are done. A result never released (go vet, the editor
// server) leaves its program to the collector, and every package gets a
// new one.

// maxUses bounds how many packages one program builds: it keeps every
// package it built, so sharing trades memory for time. On kubernetes'
// pkg/controller, 16 reuses three imports in five and adds about 20 MB to
// the peak.
const maxUses = 16

// A program is an SSA program lent to one package at a time.
type program struct {
	prog *ssa.Program
	fset *token.FileSet
	uses int
}

var programs struct {
	sync.Mutex
	free []*program
}

// borrow returns a released program for packages of fset, or a new one.
// Released programs of another file set are dropped: their run is over.
func borrow(fset *token.FileSet) *program {
	programs.Lock()
	defer programs.Unlock()
	for len(programs.free) > 0 {
		p := programs.free[len(programs.free)-1]
		programs.free = programs.free[:len(programs.free)-1]
		if p.fset == fset {
			return p
		}
	}
	return &program{prog: ssa.NewProgram(fset, ssa.BareInits), fset: fset}
}

// Release says that nothing reads the package's SSA form any more, so its
// program may build another package of the same run. Calling it again, or
// on the nil result of a package that cannot see the Kubernetes APIs, does
// nothing.
func (s *SSA) Release() {
	if s == nil || s.lent == nil {
		return
	}
	p := s.lent
	s.lent = nil
	p.uses++
	if p.uses >= maxUses {
		return
	}
	programs.Lock()
	defer programs.Unlock()
	programs.free = append(programs.free, p)
}
