package load

import (
	"context"
	"maps"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// splitModule has the shapes the split listing must tell apart: a package
// whose external test imports it alone (its test variant is a source
// root), and one whose external test imports a package that imports it
// (the go command recompiles that one against the test variant, whose
// export data then mentions it).
var splitModule = map[string]string{
	"b/b.go":      "package b\n\ntype T struct{}\n\nfunc New() T { return T{} }\n",
	"b/b_test.go": "package b\n\nvar _ = New()\n",
	"b/x_test.go": "package b_test\n\nimport \"example.com/m/b\"\n\nvar _ b.T = b.New()\n",
	"c/c.go":      "package c\n\nimport \"example.com/m/d\"\n\nconst X = d.D\n",
	"d/d.go":      "package d\n\nconst D = 1\n",
	"d/d_test.go": "package d\n\nvar _ = D\n",
	"d/x_test.go": "package d_test\n\nimport (\n\t\"example.com/m/c\"\n\t\"example.com/m/d\"\n)\n\nvar _ = c.X + d.D\n",
	// With cgo, net's compiled files import runtime/cgo, which a
	// listing without compiled files does not list.
	"e/e.go": "package e\n\nimport _ \"net\"\n",
}

func TestListSourceRoots(t *testing.T) {
	dir := testanalyzers.WriteModule(t, splitModule)
	for _, tc := range []struct {
		tests bool
		want  []string
	}{
		{false, []string{"example.com/m/b", "example.com/m/c", "example.com/m/d", "example.com/m/e"}}, // d: only roots import it
		{true, []string{
			"example.com/m/b [example.com/m/b.test]",
			"example.com/m/b_test [example.com/m/b.test]",
			"example.com/m/c",
			"example.com/m/d_test [example.com/m/d.test]",
			"example.com/m/e",
		}},
	} {
		l, err := List(context.Background(), &Options{Dir: dir, Patterns: []string{"./..."}, Tests: tc.tests}, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Sorted(maps.Keys(l.Source)); !slices.Equal(got, tc.want) {
			t.Errorf("tests=%v: source roots %q, want %q", tc.tests, got, tc.want)
		}
		// Every other package of the graph has export data, which
		// the source roots were listed without.
		packages.Visit(l.Roots, nil, func(p *packages.Package) {
			switch {
			case p.PkgPath == "unsafe":
			case l.Source[p.ID] && p.ExportFile != "":
				t.Errorf("tests=%v: source root %s has export data", tc.tests, p.ID)
			case !l.Source[p.ID] && p.ExportFile == "":
				t.Errorf("tests=%v: %s has no export data (errors %v)", tc.tests, p.ID, p.Errors)
			}
		})
	}
}
