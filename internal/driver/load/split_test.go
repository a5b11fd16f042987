package load

import (
	"context"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"testing"
	"time"

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
		l, err := List(context.Background(), &Options{Dir: dir, Patterns: []string{"./..."}, Tests: tc.tests}, SourceRoots)
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

// unbuiltModule requires a module whose packages no build has seen (their
// content is new to the go build cache): a first run on a fresh machine.
func unbuiltModule(t *testing.T) string {
	unique := fmt.Sprintf("%s %d", t.Name(), time.Now().UnixNano())
	return testanalyzers.WriteModule(t, map[string]string{
		"go.mod":             "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./dep\n",
		"dep/go.mod":         "module example.com/dep\n\ngo 1.22\n",
		"dep/lower/lower.go": fmt.Sprintf("package lower\n\nconst Unique = %q\n\ntype T struct{ N int }\n", unique),
		"dep/upper/upper.go": "package upper\n\nimport (\n\t\"strings\"\n\n\t\"example.com/dep/lower\"\n)\n\nfunc New() lower.T { return lower.T{N: len(strings.TrimSpace(lower.Unique))} }\n",
		"a/a.go":             "package a\n\nimport \"example.com/dep/upper\"\n\nvar X = upper.New().N\n",
		"b/b.go":             "package b\n\nimport \"strings\"\n\nvar Y = strings.ToUpper(\"b\")\n",
		// d's external test imports c, which imports d: the go command
		// recompiles c for d's test ("c [d.test]").
		"c/c.go":      "package c\n\nimport \"example.com/m/d\"\n\nconst X = d.D\n",
		"d/d.go":      "package d\n\nconst D = 1\n",
		"d/d_test.go": "package d\n\nvar _ = D\n",
		"d/x_test.go": "package d_test\n\nimport (\n\t\"example.com/m/c\"\n\t\"example.com/m/d\"\n)\n\nvar _ = c.X + d.D\n",
	})
}

// Unbuilt leaves out the export data of the packages the go command has
// not built, and of nothing it has: once built, they have export data.
func TestListUnbuilt(t *testing.T) {
	dir := unbuiltModule(t)
	opts := &Options{Dir: dir, Patterns: []string{"./..."}}
	l, err := List(context.Background(), opts, Unbuilt)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"example.com/dep/lower", "example.com/dep/upper", "example.com/m/a", "example.com/m/b"} {
		if !l.Source[id] {
			t.Errorf("%s is not listed as source: %v", id, slices.Sorted(maps.Keys(l.Source)))
		}
	}
	deps := SourceDeps(l)
	if got := ids(deps); !slices.Equal(got, []string{"example.com/dep/lower", "example.com/dep/upper"}) {
		t.Errorf("source dependencies %q, want lower then upper", got)
	}
	packages.Visit(l.Roots, nil, func(p *packages.Package) {
		if p.PkgPath != "unsafe" && l.Source[p.ID] == (p.ExportFile != "") {
			t.Errorf("%s: source %v, export data %q", p.ID, l.Source[p.ID], p.ExportFile)
		}
	})

	// A listing that outlasts its hedge (here one that would never end)
	// gives way to Unbuilt's.
	endless := func(ctx context.Context) (*Listing, error) { <-ctx.Done(); return nil, ctx.Err() }
	hedged, err := listHedged(context.Background(), opts, endless, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(SourceDeps(hedged)); !slices.Equal(got, []string{"example.com/dep/lower", "example.com/dep/upper"}) {
		t.Errorf("hedged: source dependencies %q, want lower then upper", got)
	}

	cmd := exec.Command("go", "test", "-count=1", "-run=^$", "./...", "example.com/dep/...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	if l, err = List(context.Background(), opts, Unbuilt); err != nil {
		t.Fatal(err)
	}
	if got := ids(SourceDeps(l)); len(got) != 0 {
		t.Errorf("built, yet source dependencies %q", got)
	}
	// With tests, the test variants are source even when built: only a
	// listing that builds the test's whole graph, what is not built
	// included, would give them export data.
	withTests := *opts
	withTests.Tests = true
	lt, err := List(context.Background(), &withTests, Unbuilt)
	if err != nil {
		t.Fatal(err)
	}
	packages.Visit(lt.Roots, nil, func(p *packages.Package) {
		if p.ForTest != "" && !lt.Source[p.ID] {
			t.Errorf("tests: test variant %s has export data %q", p.ID, p.ExportFile)
		}
	})
	if !lt.Source["example.com/m/c [example.com/m/d.test]"] {
		t.Errorf("tests: c [d.test] is not source: %v", slices.Sorted(maps.Keys(lt.Source)))
	}
	// The editor's load type-checks that dependency after the root it
	// imports ("d [d.test]"), and before the root importing it.
	checked, err := checkListing(context.Background(), &withTests, lt)
	if err != nil {
		t.Errorf("tests: type-checking the listing: %v", err)
	}
	if len(checked) != len(lt.Roots) {
		t.Errorf("tests: %d of %d roots type-checked", len(checked), len(lt.Roots))
	}

	// Nothing left to build: the listing asked for is waited for.
	noSources := func(ctx context.Context) (*Listing, error) { return List(ctx, opts, NoSources) }
	if hedged, err = listHedged(context.Background(), opts, noSources, 0); err != nil {
		t.Fatal(err)
	}
	if len(hedged.Source) != 0 {
		t.Errorf("built, yet hedged listing has source packages %q", slices.Sorted(maps.Keys(hedged.Source)))
	}
}
