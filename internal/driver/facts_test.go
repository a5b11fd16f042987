package driver_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// A module whose findings in top need what mid says of itself: top calls
// mid.M, which calls bad through a function of its own package, and
// mid.Chain, which calls low.L, which calls bad: a chain across two
// packages, which mid's summary of Chain follows through low's facts, so
// low gives its facts whenever top is analysed, two levels below it. low
// has an in-package test; other is not below top.
var factsModule = map[string]string{
	"low/low.go":      "package low\n\nfunc bad() {}\n\nfunc L() { bad() }\n\nfunc Clean() {}\n",
	"low/low_test.go": "package low\n\nfunc T() { L() }\n",
	"mid/mid.go":      "package mid\n\nimport \"example.com/m/low\"\n\nfunc bad() {}\n\nfunc helper() { bad() }\n\nfunc M() { helper() }\n\nfunc Chain() { low.L() }\n\nfunc N() { low.Clean() }\n",
	"top/top.go":      "package top\n\nimport \"example.com/m/mid\"\n\nfunc Top() {\n\tmid.M()\n\tmid.Chain()\n\tmid.N()\n}\n",
	"top/top_test.go": "package top_test\n\nimport \"example.com/m/mid\"\n\nfunc X() { mid.M() }\n",
	"other/other.go":  "package other\n\nfunc bad() {}\n\nfunc O() { bad() }\n",
}

var (
	wantTop = []string{
		"top/top.go:1:9-1:9: sees facts of mid (callsbad)",
		"top/top.go:6:2-6:2: mid.M calls bad (helper→bad) (callsbad)",
		"top/top.go:7:2-7:2: mid.Chain calls bad (low.L→bad) (callsbad)",
	}
	wantTopTest = "top/top_test.go:5:12-5:12: mid.M calls bad (helper→bad) (callsbad)"
	wantMid     = []string{
		"mid/mid.go:1:9-1:9: sees facts of low (callsbad)",
		"mid/mid.go:11:16-11:16: low.L calls bad (bad) (callsbad)",
	}
)

// Facts reach a package from the packages of the analysed module in its
// import closure, whether the patterns name them or not: named, they are
// analysed as roots; not, for their facts only.
func TestFactsAcrossPackages(t *testing.T) {
	dir := testanalyzers.WriteModule(t, factsModule)
	for _, tc := range []struct {
		name     string
		patterns []string
		tests    bool
		want     []string
	}{
		{"top only", []string{"./top"}, false, wantTop},
		{"top with tests", []string{"./top"}, true, append(slices.Clone(wantTop), wantTopTest)},
		{"all", []string{"./..."}, true, append(append(slices.Clone(wantMid), wantTop...), wantTopTest)},
		{"mid and top", []string{"./mid", "./top"}, false, append(slices.Clone(wantMid), wantTop...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := analyze(t, dir, driver.Config{Patterns: tc.patterns, Tests: tc.tests, Analyzers: []*analysis.Analyzer{testanalyzers.CallsBad}})
			if err != nil {
				t.Fatal(err)
			}
			if got := lines(dir, res.Findings); !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// Only packages that use the APIs the summaries are about give facts when
// the patterns do not name them (Config.SummaryImports).
func TestSummaryUnitsUseTheAPIs(t *testing.T) {
	dir := testanalyzers.WriteModule(t, factsModule)
	for _, tc := range []struct {
		prefixes []string
		want     []string
	}{
		{[]string{"example.com/m/low"}, wantTop[:2]}, // mid imports low; low does not, so gives no facts
		{[]string{"k8s.io/client-go/"}, nil},
	} {
		res, err := analyze(t, dir, driver.Config{Patterns: []string{"./top"}, SummaryImports: tc.prefixes, Analyzers: []*analysis.Analyzer{testanalyzers.CallsBad}})
		if err != nil {
			t.Fatal(err)
		}
		if got := lines(dir, res.Findings); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q\nwant %q", tc.prefixes, got, tc.want)
		}
	}
}

// The editor's path (Load, then Run) passes facts among the packages it
// loaded, as Analyze does.
func TestFactsAcrossPackagesLoadAndRun(t *testing.T) {
	dir := testanalyzers.WriteModule(t, factsModule)
	cfg := &driver.Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: []*analysis.Analyzer{testanalyzers.CallsBad}}
	pkgs, err := driver.Load(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := driver.Run(cfg, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(wantMid), wantTop...)
	if got := lines(dir, res.Findings); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// A package's cached findings change when a summary it reads does, and a
// package analysed again gets the facts of the unchanged packages it
// imports, whether the run analyses them as roots or not, with the same
// result either way.
func TestResultCacheFollowsFacts(t *testing.T) {
	dir := testanalyzers.WriteModule(t, factsModule)
	cfg := driver.Config{Patterns: []string{"./mid", "./top"}, Analyzers: []*analysis.Analyzer{testanalyzers.CallsBad}, CacheDir: t.TempDir()}
	run := func(what string, want []string) {
		t.Helper()
		res, err := analyze(t, dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := lines(dir, res.Findings); !slices.Equal(got, want) {
			t.Errorf("%s: got %q\nwant %q", what, got, want)
		}
	}
	both := append(slices.Clone(wantMid), wantTop...)
	run("first run", both)
	run("cached run", both)

	// top changes alone: analysed again (mid is a hit, and gives its facts
	// as a summary unit), it still sees what mid says.
	write(t, dir, "top/top.go", "package top\n\nimport \"example.com/m/mid\"\n\n// Top calls M.\nfunc Top() {\n\tmid.M()\n\tmid.Chain()\n\tmid.N()\n}\n")
	chain := "top/top.go:8:2-8:2: mid.Chain calls bad (low.L→bad) (callsbad)"
	edited := append(slices.Clone(wantMid), wantTop[0], "top/top.go:7:2-7:2: mid.M calls bad (helper→bad) (callsbad)", chain)
	run("after editing top", edited)

	// mid's helper no longer calls bad: nothing in top changed, but its
	// finding goes.
	write(t, dir, "mid/mid.go", strings.Replace(factsModule["mid/mid.go"], "func helper() { bad() }", "func helper() {}", 1))
	run("after editing mid", append(slices.Clone(wantMid), wantTop[0], chain))

	// And comes back with it.
	write(t, dir, "mid/mid.go", factsModule["mid/mid.go"])
	run("after restoring mid", edited)

	// low's L no longer calls bad: mid's finding goes, and so does top's
	// finding of the chain through mid, though neither changed.
	write(t, dir, "low/low.go", "package low\n\nfunc bad() {}\n\nfunc L() {}\n\nfunc Clean() {}\n")
	run("after editing low", []string{wantMid[0], wantTop[0], "top/top.go:7:2-7:2: mid.M calls bad (helper→bad) (callsbad)"})
}

// The analysed modules are the roots' modules, whatever their version: the
// corpus analyses kubernetes as a module its wrapper requires at a version.
// Their other packages are summary units; another module's are not.
func TestFactsInAModuleRequiredAtAVersion(t *testing.T) {
	files := map[string]string{
		"go.mod":     "module example.com/w\n\ngo 1.22\n\nrequire (\n\texample.com/m v1.0.0\n\texample.com/dep v1.0.0\n)\n\nreplace example.com/m => ./m\n\nreplace example.com/dep => ./dep\n",
		"w.go":       "package w\n\nimport _ \"example.com/m/top\"\n",
		"m/go.mod":   "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n",
		"dep/go.mod": "module example.com/dep\n\ngo 1.22\n",
		"dep/d/d.go": "package d\n\nfunc bad() {}\n\nfunc D() { bad() }\n",
		"m/top/x.go": "package top\n\nimport \"example.com/dep/d\"\n\nfunc X() { d.D() }\n",
	}
	for name, content := range factsModule {
		files["m/"+name] = content
	}
	dir := testanalyzers.WriteModule(t, files)
	res, err := analyze(t, dir, driver.Config{Patterns: []string{"example.com/m/top"}, Analyzers: []*analysis.Analyzer{testanalyzers.CallsBad}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"m/top/top.go:1:9-1:9: sees facts of mid (callsbad)", "m/top/top.go:6:2-6:2: mid.M calls bad (helper→bad) (callsbad)", "m/top/top.go:7:2-7:2: mid.Chain calls bad (low.L→bad) (callsbad)"}
	if got := lines(dir, res.Findings); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// The packages whose facts a package sees are those its code names where
// it can call into them, decided by its code alone: top uses konst only
// for a constant, so konst gives top no facts, also in a run where another
// root (user) calls into konst and makes it a summary unit. Were the units
// a root sees to depend on the other roots of a run, its cached result
// would depend on them too.
func TestSummaryUnitsAreTheNamedPackages(t *testing.T) {
	files := map[string]string{
		"konst/konst.go": "package konst\n\nconst K = 1\n\nfunc bad() {}\n\nfunc F() { bad() }\n",
		"top/top.go":     "package top\n\nimport (\n\t\"example.com/m/konst\"\n\t\"example.com/m/mid\"\n)\n\nvar _ = konst.K\n\nfunc Top() { mid.M() }\n",
		"mid/mid.go":     "package mid\n\nfunc bad() {}\n\nfunc M() { bad() }\n",
		"user/user.go":   "package user\n\nimport \"example.com/m/konst\"\n\nfunc U() { konst.F() }\n",
	}
	dir := testanalyzers.WriteModule(t, files)
	top := []string{"top/top.go:1:9-1:9: sees facts of mid (callsbad)", "top/top.go:10:14-10:14: mid.M calls bad (bad) (callsbad)"}
	for _, tc := range []struct {
		patterns []string
		want     []string
	}{
		{[]string{"./top"}, top},
		{[]string{"./top", "./user"}, append(slices.Clone(top), "user/user.go:1:9-1:9: sees facts of konst (callsbad)", "user/user.go:5:12-5:12: konst.F calls bad (bad) (callsbad)")},
	} {
		res, err := analyze(t, dir, driver.Config{Patterns: tc.patterns, Analyzers: []*analysis.Analyzer{testanalyzers.CallsBad}})
		if err != nil {
			t.Fatal(err)
		}
		if got := lines(dir, res.Findings); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q\nwant %q", tc.patterns, got, tc.want)
		}
	}
}
