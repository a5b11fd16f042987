package kubessa

import (
	"go/token"
	"testing"
)

// A program goes back to the pool only when released, serves only its own
// run's file set, and is retired after maxUses packages.
func TestProgramLending(t *testing.T) {
	fset, other := token.NewFileSet(), token.NewFileSet()
	first := borrow(fset)
	if again := borrow(fset); again == first {
		t.Fatal("a program lent and not released was lent again")
	}
	(&SSA{lent: first}).Release()
	if got := borrow(other); got == first {
		t.Fatal("a program was lent to another run's file set")
	}
	// Borrowing for the other file set dropped first from the pool.
	if got := borrow(fset); got == first {
		t.Fatal("a program of a finished run was kept after another run borrowed")
	}

	p := borrow(fset)
	for i := 1; i < maxUses; i++ {
		s := &SSA{lent: p}
		s.Release()
		s.Release() // a second release does nothing
		if got := borrow(fset); got != p {
			t.Fatalf("after %d uses the released program was not lent again", i)
		}
	}
	(&SSA{lent: p}).Release()
	if got := borrow(fset); got == p {
		t.Fatalf("the program was lent again after %d uses", maxUses)
	}
	var none *SSA
	none.Release() // the result of a package that cannot see the Kubernetes APIs
}
