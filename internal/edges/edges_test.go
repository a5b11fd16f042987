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
	c *http.Client // a field's type: its methods can be called
}

var mu sync.Mutex // a variable's type

func f(d time.Duration) string { // a parameter's type
	b := bytes.Buffer{} // a composite literal's type
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
	resolved := edges.Named([]*ast.File{f}, edges.Resolved(info))
	want := []string{"bytes", "errors", "net/http", "strings", "sync", "time"}
	if got := slices.Sorted(maps.Keys(resolved)); !slices.Equal(got, want) {
		t.Errorf("Resolved: %v, want %v", got, want)
	}
	names := map[string]string{"unicode/utf8": "utf8"}
	syntactic := edges.Named([]*ast.File{f}, edges.Syntactic(func(path string) string { return names[path] }))
	for p := range resolved {
		if !syntactic[p] {
			t.Errorf("the syntax misses %s, which the type checker resolves: the driver would not analyse a package whose facts are read", p)
		}
	}
	if syntactic["math"] || resolved["math"] {
		t.Errorf("a constant's package counted as reached")
	}
	if resolved["unicode/utf8"] || !syntactic["unicode/utf8"] {
		t.Errorf("a shadowing local: resolved %v, syntactic %v; want only the syntax to count it", resolved["unicode/utf8"], syntactic["unicode/utf8"])
	}
}
