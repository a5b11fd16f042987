package analyzers_test

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// TestEveryFixCompiles is a property of every suggested fix of every
// analyzer: applied alone to the fixtures of both fixture modules, as
// `ctrllint -fix` or an editor's quick fix applies it, its result parses,
// is gofmt-clean and type-checks; and so do all of a module's fixes
// applied together. The type check here is the test's own (every file of
// the package parsed again, the dependencies' types from a load of the
// module), independent of the check the analyzers make before offering a
// fix, so that a bug there cannot hide a broken fix.
//
// The one-line shapes of every fix kind (a handler, a reconcile branch or
// a worker written on one line) are in each fixing analyzer's fixture, in
// oneline.go, in both modules: every finding there must carry its fix (the
// analyzers drop a fix that would not type-check, edit.Checked, so a
// broken one would otherwise pass here unseen), and where the fixture has
// golden files, oneline.go.golden shows what the fix writes.
func TestEveryFixCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses both fixture modules whole")
	}
	total := make(map[string]int)
	oneLine := make(map[string]int) // module/analyzer: fixes in oneline.go
	for _, module := range []string{"current", "legacy"} {
		t.Run(module, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("..", "testdata", "src", module))
			if err != nil {
				t.Fatal(err)
			}
			t.Setenv("GOPROXY", "off")
			t.Setenv("GOFLAGS", "-mod=mod")
			res, err := driver.Analyze(context.Background(), &driver.Config{
				Dir: dir, Patterns: []string{"./..."}, Tests: true, Analyzers: analyzers.All(),
				WholePackages: analyzers.WholePackages(), SummaryImports: analyzers.SummaryImports(),
			})
			if err != nil {
				t.Fatal(err)
			}
			checker := newFixChecker(t, dir)
			var fixed []finding.Finding
			for _, f := range res.Findings {
				if filepath.Base(f.Pos.File) == "oneline.go" && f.Category == "" {
					if len(f.Fixes) == 0 {
						t.Errorf("%s: finding of %s on a one-line shape has no fix", rel(dir, f.Pos), f.Analyzer)
					}
					oneLine[module+"/"+f.Analyzer]++
				}
				if len(f.Fixes) == 0 {
					continue
				}
				fixed = append(fixed, f)
				total[f.Analyzer]++
				plan := finding.PlanFixes([]finding.Finding{f}, finding.PlanOptions{Analysed: res.Analysed})
				if !plan.Applied[0] {
					t.Errorf("%s: fix of %s not applicable: %v", rel(dir, f.Pos), f.Analyzer, plan.Skipped)
					continue
				}
				if err := checker.check(plan.Files); err != nil {
					t.Errorf("%s: fix %q of %s: %v", rel(dir, f.Pos), f.Fixes[0].Message, f.Analyzer, err)
				}
			}
			// All together, as -fix writes them (conflicting ones skipped).
			plan := finding.PlanFixes(fixed, finding.PlanOptions{Analysed: res.Analysed})
			for _, s := range plan.Skipped {
				if s.Reason != "conflicts with another fix" {
					t.Errorf("%s: fix of %s skipped together with the others: %s", rel(dir, s.Finding.Pos), s.Finding.Analyzer, s.Reason)
				}
			}
			if err := checker.check(plan.Files); err != nil {
				t.Errorf("all fixes together: %v", err)
			}
		})
	}
	// Every analyzer that can fix has fixes here, so that none of the
	// above passes by checking nothing.
	for _, name := range []string{"tombstone", "forget", "listerbypass", "cachemutation", "statusupdate", "patchbase", "ownerkind", "observedgeneration", "rbacmarkers", "finalizerpatch"} {
		if total[name] == 0 {
			t.Errorf("no fix of %s in the fixtures: the property is not tested for it", name)
		}
		for _, module := range []string{"current", "legacy"} {
			if oneLine[module+"/"+name] == 0 {
				t.Errorf("%s: no one-line shape of %s's fix (a finding in its fixture's oneline.go)", module, name)
			}
		}
	}
	t.Logf("fixes checked: %v", total)
}

func rel(dir string, p finding.Position) string {
	r, err := filepath.Rel(dir, p.File)
	if err != nil {
		r = p.File
	}
	return fmt.Sprintf("%s:%d:%d", r, p.Line, p.Column)
}

// fixChecker type-checks a module's packages with some files' contents
// replaced.
type fixChecker struct {
	pkgs   []*packages.Package
	byFile map[string][]*packages.Package // each file's packages (a package and its test variant)
}

func newFixChecker(t *testing.T, dir string) *fixChecker {
	cfg := &packages.Config{
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports | packages.NeedDeps | packages.NeedTypes | packages.NeedModule,
		Dir:   dir,
		Tests: true,
		Env:   append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	c := &fixChecker{pkgs: pkgs, byFile: make(map[string][]*packages.Package)}
	for _, p := range pkgs {
		for _, f := range p.CompiledGoFiles {
			c.byFile[f] = append(c.byFile[f], p)
		}
	}
	return c
}

// check reports the first problem of the files changed: one that does not
// parse, is not gofmt-clean, or leaves a package that includes it failing
// to type-check.
func (c *fixChecker) check(changed map[string][]byte) error {
	if len(changed) == 0 {
		return fmt.Errorf("the fix changes nothing")
	}
	var affected []*packages.Package
	for _, file := range slices.Sorted(maps.Keys(changed)) {
		src := changed[file]
		if formatted, err := format.Source(src); err != nil {
			return fmt.Errorf("%s does not parse: %v", filepath.Base(file), err)
		} else if !bytes.Equal(formatted, src) {
			return fmt.Errorf("%s is not gofmt-clean", filepath.Base(file))
		}
		if len(c.byFile[file]) == 0 {
			return fmt.Errorf("%s is in no package of the module", file)
		}
		for _, p := range c.byFile[file] {
			if !slices.Contains(affected, p) {
				affected = append(affected, p)
			}
		}
	}
	for _, p := range affected {
		if err := typeCheck(p, changed); err != nil {
			return fmt.Errorf("%s: %v", p.ID, err)
		}
	}
	return nil
}

// typeCheck parses p's files (those in changed with their new content)
// and type-checks them against p's dependencies.
func typeCheck(p *packages.Package, changed map[string][]byte) error {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range p.CompiledGoFiles {
		src, ok := changed[name]
		if !ok {
			var err error
			if src, err = os.ReadFile(name); err != nil {
				return err
			}
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	// The dependencies' types, as the load decoded them from export
	// data: p's whole graph (a fix may import a package p reaches only
	// through another, as client-go's cache).
	deps := make(map[string]*types.Package)
	packages.Visit([]*packages.Package{p}, nil, func(d *packages.Package) {
		if d != p && d.Types != nil {
			deps[d.PkgPath] = d.Types
		}
	})
	var errs []string
	conf := types.Config{
		Importer: importer(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if d := deps[path]; d != nil {
				return d, nil
			}
			return nil, fmt.Errorf("%s is not among the package's dependencies", path)
		}),
		Error: func(err error) { errs = append(errs, err.Error()) },
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	conf.Check(p.PkgPath, fset, files, nil)
	if len(errs) > 0 {
		return fmt.Errorf("does not type-check: %s", strings.Join(errs, "; "))
	}
	return nil
}

type importer func(path string) (*types.Package, error)

func (f importer) Import(path string) (*types.Package, error) { return f(path) }
