package driver_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// loadAndRun is the path the editor server and the benchmarks take: every
// package loaded at once by go/packages, then analysed.
func loadAndRun(t *testing.T, cfg *driver.Config) (*driver.Result, error) {
	t.Helper()
	pkgs, loadErr := driver.Load(context.Background(), cfg)
	if loadErr != nil && len(pkgs) == 0 {
		return &driver.Result{}, loadErr
	}
	res, err := driver.Run(cfg, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	return res, loadErr
}

// Analyze streams packages one at a time; it must find exactly what
// Load+Run finds, fixes, packages and all, on the fixture module (real
// client-go and controller-runtime code, every analyzer), with and
// without tests.
func TestStreamingMatchesLoadAndRun(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "current"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tests := range []bool{false, true} {
		cfg := &driver.Config{
			Dir:           dir,
			Patterns:      []string{"./..."},
			Tests:         tests,
			Analyzers:     analyzers.All(),
			Env:           append(os.Environ(), "GOPROXY=off"),
			WholePackages: analyzers.WholePackages(), // as the command sets it
		}
		want, werr := loadAndRun(t, cfg)
		if werr != nil {
			t.Fatalf("tests=%v: Load+Run error %v", tests, werr)
		}
		if len(want.Findings) == 0 {
			t.Fatalf("tests=%v: no findings: the comparison compares nothing", tests)
		}
		// As a cold run lists, and as a re-run after an edit.
		for i, analyze := range []func(context.Context, *driver.Config) (*driver.Result, error){driver.Analyze, driver.AnalyzeSourceRoots} {
			got, gerr := analyze(context.Background(), cfg)
			if gerr != nil {
				t.Fatalf("tests=%v, source roots=%v: Analyze error %v", tests, i == 1, gerr)
			}
			if !slices.EqualFunc(got.Findings, want.Findings, sameFinding) {
				t.Errorf("tests=%v, source roots=%v: Analyze found\n%s\nLoad+Run found\n%s", tests, i == 1,
					strings.Join(lines(dir, got.Findings), "\n"), strings.Join(lines(dir, want.Findings), "\n"))
			}
			for j := range min(len(got.Findings), len(want.Findings)) {
				if g, w := got.Findings[j], want.Findings[j]; g.Package != w.Package || !slices.EqualFunc(g.Fixes, w.Fixes, sameFix) {
					t.Errorf("tests=%v, source roots=%v: finding %d: package %s, fixes %+v; Load+Run: package %s, fixes %+v", tests, i == 1, j, g.Package, g.Fixes, w.Package, w.Fixes)
				}
			}
			if len(got.Errors) != 0 || len(want.Errors) != 0 {
				t.Errorf("tests=%v, source roots=%v: analyzer errors: Analyze %v, Load+Run %v", tests, i == 1, got.Errors, want.Errors)
			}
		}

		// The result cache, empty and then full, changes nothing.
		cached := *cfg
		cached.CacheDir = t.TempDir()
		for _, run := range []string{"cold", "warm"} {
			got, err := driver.Analyze(context.Background(), &cached)
			if err != nil {
				t.Fatalf("tests=%v: %s cache: %v", tests, run, err)
			}
			if !slices.EqualFunc(got.Findings, want.Findings, sameFinding) {
				t.Errorf("tests=%v: with a %s cache, Analyze found\n%s\nLoad+Run found\n%s", tests, run,
					strings.Join(lines(dir, got.Findings), "\n"), strings.Join(lines(dir, want.Findings), "\n"))
			}
		}
	}
}

func sameFinding(x, y finding.Finding) bool {
	return x.Analyzer == y.Analyzer && x.Category == y.Category && x.Message == y.Message && x.URL == y.URL && x.Pos == y.Pos && x.End == y.End
}

func sameFix(x, y finding.Fix) bool {
	return x.Message == y.Message && slices.Equal(x.Edits, y.Edits)
}

// A root that does not type-check is reported as a load problem, as
// Load reports it, and the other roots are still analysed, except those
// that import it (c), as with Load.
func TestStreamingTypeErrorInOneRoot(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a.go":        badGo,
		"b/b.go":      "package b\n\nfunc bad() {}\n\nfunc G() int { bad(); return \"x\" }\n",
		"c/c.go":      "package c\n\nimport \"example.com/m/b\"\n\nfunc bad() {}\n\nfunc H() int { bad(); return b.G() }\n",
		"d/d.go":      "package d\n\nfunc bad() {}\n\nfunc D() { bad() }\n",
		"d/d_test.go": "package d\n\nfunc T() { bad(); var s string = 1; _ = s }\n",
	})
	for _, tests := range []bool{false, true} {
		cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Tests: tests, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall}}
		res, err := driver.Analyze(context.Background(), cfg)
		var le *driver.LoadError
		if !errors.As(err, &le) {
			t.Fatalf("tests=%v: err = %v, want a *LoadError", tests, err)
		}
		wantProbs := []string{`$DIR/b/b.go:5:30: cannot use "x" (untyped string constant) as int value in return statement`}
		wantFindings := []string{
			"a.go:7:2-7:7: call of bad (badcall)",
			"a.go:8:12-8:17: call of bad (badcall)",
			"d/d.go:5:12-5:17: call of bad (badcall)",
		}
		if tests {
			wantProbs = append(wantProbs, "$DIR/d/d_test.go:3:34: cannot use 1 (untyped int constant) as string value in variable declaration")
			wantFindings = slices.Delete(wantFindings, 2, 3) // d is analysed as d [d.test], which does not type-check
		}
		var probs []string
		for _, p := range le.Problems {
			probs = append(probs, strings.ReplaceAll(p.String(), dir, "$DIR"))
		}
		if !slices.Equal(probs, wantProbs) {
			t.Errorf("tests=%v: problems\n%s\nwant\n%s", tests, strings.Join(probs, "\n"), strings.Join(wantProbs, "\n"))
		}
		if got := lines(dir, res.Findings); !slices.Equal(got, wantFindings) {
			t.Errorf("tests=%v: findings\n%s\nwant\n%s", tests, strings.Join(got, "\n"), strings.Join(wantFindings, "\n"))
		}
		// Load+Run agrees.
		want, werr := loadAndRun(t, cfg)
		if werr == nil || werr.Error() != err.Error() {
			t.Errorf("tests=%v: Load+Run error %v, Analyze error %v", tests, werr, err)
		}
		if got, w := lines(dir, res.Findings), lines(dir, want.Findings); !slices.Equal(got, w) {
			t.Errorf("tests=%v: Analyze found %v, Load+Run %v", tests, got, w)
		}
	}
}

// The streaming path reports broken packages in the very words Load does.
func TestStreamingLoadErrorsMatchLoad(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"type error":                      {"a.go": badGo, "b/b.go": "package b\n\nfunc G() int { return \"x\" }\n"},
		"syntax error":                    {"a.go": badGo, "b/b.go": "package b\n\nfunc G( {\n"},
		"syntax error and no type errors": {"a.go": badGo, "b/b.go": "package b\n\nfunc G() {\n\ty := 2\n\tprintln(\n}\n"},
		"missing module":                  {"a.go": "package m\n\nimport \"example.com/nope\"\n\nvar _ = nope.X\n"},
		"broken dependency two levels down": {
			"a.go":        "package m\n\nimport \"example.com/m/b\"\n\nvar _ = b.G\n",
			"b/b.go":      "package b\n\nimport \"example.com/m/b/c\"\n\nfunc G() int { return c.H() }\n",
			"b/c/c.go":    "package c\n\nfunc H() int { return \"x\" }\n",
			"b/c/c_ok.go": "package c\n",
			"d/d.go":      badGo[len("package m"):],
		},
		"import cycle": {
			"a.go":   badGo,
			"b/b.go": "package b\n\nimport \"example.com/m/c\"\n\nvar B = c.C\n",
			"c/c.go": "package c\n\nimport \"example.com/m/b\"\n\nvar C = b.B\n",
		},
		"test-only type error": {"a.go": badGo, "a_test.go": "package m\n\nvar _ int = \"x\"\n"},
		// b is type-checked from source only, for a as for its test.
		"root importing a broken root": {
			"a.go":        "package m\n\nimport \"example.com/m/b\"\n\nvar _ = b.G\n",
			"b/b.go":      "package b\n\nfunc G() int { return \"x\" }\n",
			"b/x_test.go": "package b_test\n\nimport \"example.com/m/b\"\n\nvar _ = b.G\n",
		},
	} {
		t.Run(name, func(t *testing.T) {
			if d, ok := files["d/d.go"]; ok {
				files["d/d.go"] = "package d" + d
			}
			dir := testanalyzers.WriteModule(t, files)
			for _, tests := range []bool{false, true} {
				cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Tests: tests, Analyzers: []*analysis.Analyzer{testanalyzers.BadCall}}
				want, werr := loadAndRun(t, cfg)
				if werr == nil && name != "test-only type error" {
					t.Fatalf("tests=%v: Load reported nothing", tests)
				}
				// As a cold run lists, and as a re-run after an edit.
				for i, analyze := range []func(context.Context, *driver.Config) (*driver.Result, error){driver.Analyze, driver.AnalyzeSourceRoots} {
					got, gerr := analyze(context.Background(), cfg)
					if (werr == nil) != (gerr == nil) || werr != nil && importReason(werr.Error()) != importReason(gerr.Error()) {
						t.Errorf("tests=%v, source roots=%v: Analyze error\n%v\nLoad error\n%v", tests, i == 1, gerr, werr)
					}
					if g, w := lines(dir, got.Findings), lines(dir, want.Findings); !slices.Equal(g, w) {
						t.Errorf("tests=%v, source roots=%v: Analyze found %v, Load+Run %v", tests, i == 1, g, w)
					}
				}
			}
		})
	}
}

var importReasonRE = regexp.MustCompile(`(could not import \S+) \((no metadata for|import cycle: )[^)]*\)`)

// importReason blurs the one place where the two paths word a problem
// differently: the reason a package that closes an import cycle could not
// be imported. go/packages names the cycle from its traversal's stack,
// which the listing does not keep.
func importReason(msg string) string {
	return importReasonRE.ReplaceAllString(msg, "$1 (...)")
}
