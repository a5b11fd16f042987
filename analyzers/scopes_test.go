package analyzers_test

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// scopeReads are the Scope() calls in the analyzers' code, by the function
// that makes them and the type and text of the receiver: whose scope each
// reads. A dependency's (dep set) must be declared in the Scopes of every
// analyzer that reaches the call; the others need no declaration and say
// why. The function is as types.Func.FullName writes it, without the
// analyzers' import path; a function literal's read is its enclosing
// declaration's. Keys hold no file names: files are renamed and split,
// and two packages may each have a checks.go.
var scopeReads = map[string]struct {
	dep    string // the dependency's import path, or "" if none
	reason string
}{
	"sharedowner.allConstant: *types.Package from pass.Pkg":                    {"", "the analysed package"},
	"(*tombstone.checker).unwrapFix: *types.Package from c.pass.Pkg":           {"", "the analysed package"},
	"(*tombstone.checker).cacheQualifier: *types.Package from c.pass.Pkg":      {"", "the analysed package"},
	"(*tombstone.checker).implementationRoots: *types.Package from c.pass.Pkg": {"", "the analysed package"},
	"(*tombstone.checker).implementationRoots: *types.Package from p":          {"", "the package a WatcherFact names, imported by the analysed one: an interface its export data lacks costs implementations, never adds one"},
	"tombstone.findRoots: *types.Package from pass.Pkg":                        {"", "the analysed package"},
	"tombstone.localFuncAssignments: *types.Package from pass.Pkg":             {"", "the analysed package"},
	"internal/kube.IsUntypedHandler: *types.Package from cachePkg":             {kube.CachePkg, "IsUntypedHandler's ResourceEventHandler"},
	"(*cachemutation.checker).candidates: *types.Package from a.pass.Pkg":      {"", "the analysed package's interfaces and their implementations"},
	"(*cachemutation.checker).export: *types.Package from a.pass.Pkg":          {"", "the analysed package's interfaces and their implementations"},
	"forget.forgetFix: *types.Package from pass.Pkg":                           {"", "the analysed package"},
	"(*cachesync.checker).syncOwners: *types.Package from c.pkg.Pkg":           {"", "the analysed package's SSA package"},
	"listerbypass.collectCaches: *types.Package from pkg":                      {"", "collectCaches, called with pass.Pkg"},
	"internal/keyflow.enumConstants: *types.Package from named.Obj().Pkg()":    {"", "enumConstants, only when the package is complete"},
	"internal/kubessa.referenced: *types.Package from p":                       {"", "compares the scope's identity, reads nothing"},
	"internal/summary.Callable: *types.Package from pkg":                       {"", "Callable, called with the analysed package"},
	"(*ownerkind.evaluator).resolve: *types.Package from fc.pkg":               {"", "the analysed package or one it imports directly (checked with visible)"},
	"(*ownerkind.evaluator).qualified: *types.Package from imp":                {"", "only a package the analysed one imports directly (visible)"},
	"(*ownerkind.evaluator).object: *types.Package from obj.Pkg()":             {"", "compares the scope's identity, reads nothing"},
	"ownerkind.builtinGV: *types.Package from pkg":                             {"", "a package the analysed one imports directly (visible)"},
	"(*ownerkind.checker).customIdentity: *types.Package from pkg":             {"", "the owner type's package, imported directly (visible)"},
	"(*ownerkind.checker).pkgVars: *types.Package from c.pass.Pkg":             {"", "the analysed package"},
	"(*observedgeneration.checker).inScope: *types.Package from c.pass.Pkg":    {"", "the analysed package: which variable a name means where a condition literal is"},
	"(*rbacmarkers.checker).findGroup: *types.Package from pkg":                {"", "an object type's package, only when the analysed package imports it directly (visible)"},
}

// A scope read of a package known only from other packages' export data
// depends on what else the driver decoded: every such read must be
// declared in the definition (define.Spec.Scopes) of each analyzer that
// makes it, and each declaration must be read somewhere. The test
// type-checks the analyzers' source and finds its Scope() calls; a new one
// must be added to scopeReads, and, if it reads a dependency, to its
// analyzers' Scopes.
func TestScopesDeclared(t *testing.T) {
	declared := map[string][]string{} // analyzer → its declared scopes
	for _, a := range analyzers.All() {
		info, _ := analyzers.Lookup(a.Name)
		declared[a.Name] = info.Scopes
	}
	sources := analyzerSources(t)

	found := map[string]bool{}
	used := map[string]bool{} // "analyzer path" of declarations read
	for _, read := range scopeCalls(t) {
		found[read.key] = true
		want, ok := scopeReads[read.key]
		if !ok {
			t.Errorf("%s: %s: whose scope is it? Add it to scopeReads, and a dependency's path to the Scopes of the analyzers that read it", read.pos, read.key)
			continue
		}
		if want.dep == "" {
			continue
		}
		for _, a := range readers(t, read, sources) {
			used[a+" "+want.dep] = true
			if !slices.Contains(declared[a], want.dep) {
				t.Errorf("%s: %s reads the scope of %s (%s) but its definition does not declare it in Scopes", read.pos, a, want.dep, want.reason)
			}
		}
	}
	if len(found) == 0 {
		t.Fatal("no Scope() call found: the test reads nothing")
	}
	for key := range scopeReads {
		if !found[key] {
			t.Errorf("%s: Scope() is no longer called there: drop it from scopeReads", key)
		}
	}
	for a, paths := range declared {
		for _, p := range paths {
			if !used[a+" "+p] {
				t.Errorf("%s declares the scope of %s, but no Scope() call it reaches reads it: drop the declaration", a, p)
			}
		}
	}
	if want := kube.CachePkg; !slices.Contains(analyzers.WholePackages(), want) {
		t.Errorf("WholePackages() = %v lacks %s, which tombstone declares", analyzers.WholePackages(), want)
	}
}

// analyzersPath is the import path of this package, which the analyzers'
// packages are beneath.
const analyzersPath = "github.com/ctrllint/ctrllint/analyzers"

// scopeCall is a Scope() call without arguments in the analyzers' code.
type scopeCall struct {
	key string // as scopeReads is keyed
	pos token.Position
	// pkg is the package's path beneath analyzersPath ("tombstone",
	// "internal/kube"), fn the declaration it is in.
	pkg string
	fn  *types.Func // nil at package level
}

// scopeCalls type-checks the analyzers' packages (not their tests, whose
// Scope() calls are no analyzer's) and returns their Scope() calls.
func scopeCalls(t *testing.T) []scopeCall {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Env:  append(os.Environ(), "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the analyzers do not type-check")
	}
	var out []scopeCall
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, analyzersPath), "/")
		qual := func(other *types.Package) string { return other.Name() }
		for _, f := range p.Syntax {
			for _, decl := range f.Decls {
				var fn *types.Func
				where := p.PkgPath + " (package level)"
				if d, ok := decl.(*ast.FuncDecl); ok {
					fn = p.TypesInfo.Defs[d.Name].(*types.Func)
					where = fn.FullName()
				}
				where = strings.ReplaceAll(where, analyzersPath+"/", "")
				ast.Inspect(decl, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok || len(call.Args) != 0 {
						return true
					}
					sel, ok := call.Fun.(*ast.SelectorExpr)
					if !ok || sel.Sel.Name != "Scope" {
						return true
					}
					recv := types.TypeString(p.TypesInfo.TypeOf(sel.X), qual)
					out = append(out, scopeCall{
						key: where + ": " + recv + " from " + types.ExprString(sel.X),
						pos: p.Fset.Position(call.Pos()),
						pkg: rel,
						fn:  fn,
					})
					return true
				})
			}
		}
	}
	return out
}

// analyzerSources are the non-test sources of each analyzer's package.
func analyzerSources(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, a := range analyzers.All() {
		files, err := filepath.Glob(filepath.Join(a.Name, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("analyzer %s: no sources in analyzers/%s (%v)", a.Name, a.Name, err)
		}
		var b strings.Builder
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				b.WriteString(readFile(t, f))
			}
		}
		out[a.Name] = b.String()
	}
	return out
}

// readers are the analyzers that reach the Scope() call read: the
// analyzer whose package holds it, or, in a shared package, those that
// call the exported function around it.
func readers(t *testing.T, read scopeCall, sources map[string]string) []string {
	if _, ok := sources[read.pkg]; ok {
		return []string{read.pkg}
	}
	if read.fn == nil || read.fn.Signature().Recv() != nil || !read.fn.Exported() {
		t.Errorf("%s: a dependency's scope read outside an exported function of a shared package: the test cannot tell which analyzers reach it", read.pos)
		return nil
	}
	name := read.fn.Pkg().Name() + "." + read.fn.Name()
	var out []string
	for a, src := range sources {
		if strings.Contains(src, name+"(") {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		t.Errorf("%s: no analyzer calls %s, which reads a dependency's scope", read.pos, name)
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
