package driver_test

import (
	"context"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// A package the analysed code reaches only through another package's
// types is known to go/packages from what that package's export data
// mentions. The editor server's path (Load) must decode the packages whose
// scopes analyzers read (WholePackages) whole, as Analyze does, or an
// analyzer sees another scope in the editor than on the command line.
func TestLoadDecodesWholePackages(t *testing.T) {
	// text/template's export data mentions some of text/template/parse,
	// which the module does not import.
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go": "package m\n\nimport \"text/template\"\n\nvar T = template.New(\"x\")\n",
	})
	const whole = "text/template/parse"
	find := func(pkgs []*packages.Package) *types.Package {
		var found *types.Package
		seen := make(map[*types.Package]bool)
		var visit func(t *types.Package)
		visit = func(t *types.Package) {
			if seen[t] {
				return
			}
			seen[t] = true
			if t.Path() == whole {
				found = t
			}
			for _, imp := range t.Imports() {
				visit(imp)
			}
		}
		for _, p := range pkgs {
			visit(p.Types)
		}
		return found
	}
	direct, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedName}, whole)
	if err != nil || len(direct) != 1 || direct[0].Types == nil {
		t.Fatalf("loading %s: %v", whole, err)
	}
	want := direct[0].Types.Scope().Names()

	for _, tc := range []struct {
		whole    []string
		complete bool
	}{{nil, false}, {[]string{whole}, true}} {
		pkgs, err := driver.Load(context.Background(), &driver.Config{Dir: dir, Patterns: []string{"./..."}, WholePackages: tc.whole})
		if err != nil {
			t.Fatal(err)
		}
		parse := find(pkgs)
		if parse == nil {
			t.Fatalf("%s is not in the type graph: the test shows nothing", whole)
		}
		got := parse.Scope().Names()
		if full := parse.Complete() && slices.Equal(got, want); full != tc.complete {
			t.Errorf("WholePackages %v: %s complete %v with %d of %d names, want complete %v", tc.whole, whole, parse.Complete(), len(got), len(want), tc.complete)
		}
	}
}
