package lend

import (
	"go/token"
	"testing"
)

// A program goes back to its pool only when returned, serves only its
// own file set, and is retired after MaxUses packages.
func TestProgramLending(t *testing.T) {
	pool := new(Programs)
	fset, other := token.NewFileSet(), token.NewFileSet()
	first := pool.Borrow(fset)
	if again := pool.Borrow(fset); again == first {
		t.Fatal("a program lent and not returned was lent again")
	}
	first.Return()
	if got := pool.Borrow(other); got == first {
		t.Fatal("a program was lent for another file set")
	}
	// Borrowing for the other file set dropped first from the pool.
	if got := pool.Borrow(fset); got == first {
		t.Fatal("a program of another file set was kept after a borrow for a different one")
	}

	p := pool.Borrow(fset)
	for i := 1; i < MaxUses; i++ {
		p.Return()
		if got := pool.Borrow(fset); got != p {
			t.Fatalf("after %d uses the returned program was not lent again", i)
		}
	}
	p.Return()
	if got := pool.Borrow(fset); got == p {
		t.Fatalf("the program was lent again after %d uses", MaxUses)
	}
}

// Without a pool (go vet, the plugin), every package gets its own program
// and returning it keeps nothing.
func TestNoPool(t *testing.T) {
	var pool *Programs
	fset := token.NewFileSet()
	p := pool.Borrow(fset)
	p.Return()
	if pool.Borrow(fset) == p {
		t.Fatal("a nil pool lent the same program twice")
	}
}

// Two runs never share a program: a program returned to one run's pool
// is not lent by another's, even for the same file set.
func TestRunsDoNotShare(t *testing.T) {
	a, b := NewRun(), NewRun()
	fset := token.NewFileSet()
	p := a.Programs.Borrow(fset)
	p.Return()
	if b.Programs.Borrow(fset) == p {
		t.Fatal("another run's pool lent the program")
	}
	if a.Programs.Borrow(fset) != p {
		t.Fatal("the run's own pool did not lend its returned program")
	}
}
