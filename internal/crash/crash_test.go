package crash_test

import (
	"go/token"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/internal/crash"
)

func TestAtNamesTheInnermostPosition(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("pkg/c.go", -1, 100)
	f.SetLines([]int{0, 10, 20, 30})
	outer, inner := f.Pos(5), f.Pos(25)
	var got any
	func() {
		defer func() { got = recover() }()
		defer crash.At(fset, outer)
		func() {
			defer crash.At(fset, inner)
			var m map[string]int
			m["x"] = 1
		}()
	}()
	p, ok := got.(*crash.Panic)
	if !ok {
		t.Fatalf("recovered %T %v, want *crash.Panic", got, got)
	}
	if p.Pos.Filename != "pkg/c.go" || p.Pos.Line != 3 {
		t.Errorf("position %v, want pkg/c.go:3 (the inner node)", p.Pos)
	}
	// The position is the driver's to place (AnalyzerError), once.
	if got, want := p.Error(), "panic: assignment to entry in nil map"; got != want {
		t.Errorf("message %q", p.Error())
	}
	if !strings.Contains(p.Stack, "crash_test.TestAtNamesTheInnermostPosition") {
		t.Errorf("stack does not start where the panic did:\n%s", p.Stack)
	}
}

func TestAtLetsNormalReturnsThrough(t *testing.T) {
	fset := token.NewFileSet()
	ran := false
	func() {
		defer crash.At(fset, token.NoPos)
		ran = true
	}()
	if !ran {
		t.Fatal("body did not run")
	}
}
