package edges_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"testing"

	"github.com/ctrllint/ctrllint/internal/edges"
)

const src = `package p

import (
	"bytes"
	"errors"
	"math"
	"net/http"
	str "strings"
	"sync"
	"time"
	"unicode/utf8"
)

type T struct {
	c *http.Client // a field's type only
}

var mu sync.Mutex // a variable's type only

func f(d time.Duration) string {
	d = time.Duration(3) // a conversion, which the syntax cannot tell from a call
	b := bytes.Buffer{} // a composite literal's type only
	b.WriteString(str.ToUpper("x")) // a callee, under another name
	_ = math.Pi                     // a constant only: no code of math runs
	var err error
	_ = errors.Is(err, nil)
	var utf8 bytes.Buffer // shadows the import: the type checker knows
	utf8.Reset()
	return b.String()
}

const max = utf8.UTFMax
`

func TestNamed(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: make(map[*ast.Ident]types.Object)}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	called, held := edges.Named([]*ast.File{f}, edges.Resolved(info))
	if got, want := slices.Sorted(maps.Keys(called)), []string{"errors", "strings", "time"}; !slices.Equal(got, want) {
		t.Errorf("called: %v, want %v", got, want)
	}
	if got, want := slices.Sorted(maps.Keys(held)), []string{"bytes", "net/http", "sync", "time"}; !slices.Equal(got, want) {
		t.Errorf("held: %v, want %v", got, want)
	}
	names := map[string]string{"unicode/utf8": "utf8"}
	sCalled, sHeld := edges.Named([]*ast.File{f}, edges.Syntactic(func(path string) string { return names[path] }))
	for p := range called {
		if !sCalled[p] {
			t.Errorf("the syntax misses a call into %s, which the type checker resolves: the driver would not analyse a package whose facts are read", p)
		}
	}
	for p := range held {
		if !sHeld[p] {
			t.Errorf("the syntax misses a value of %s, which the type checker resolves", p)
		}
	}
	if sCalled["math"] || called["math"] || held["math"] {
		t.Errorf("a constant's package counted as reached")
	}
	if called["unicode/utf8"] || !sCalled["unicode/utf8"] {
		t.Errorf("a shadowing local: resolved %v, syntactic %v; want only the syntax to count it", called["unicode/utf8"], sCalled["unicode/utf8"])
	}
	reach := edges.Reach(called, held, func(path string) bool { return path == "net/http" })
	if got, want := slices.Sorted(maps.Keys(reach)), []string{"errors", "net/http", "strings", "time"}; !slices.Equal(got, want) {
		t.Errorf("reach: %v, want %v (what it calls, and what it holds that uses the clients)", got, want)
	}
}
