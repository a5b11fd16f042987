package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// These test the pure parts of the harness: statistics, formatting, tables,
// the corpus lookup, the cache detection. Nothing here is timed.

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{2, 2, 9, 1, 2}, 2},
	} {
		in := slices.Clone(tc.in)
		if got := median(in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("median(%v) reordered its argument", tc.in)
		}
	}
	if got := median(nil); !math.IsNaN(got) {
		t.Errorf("median(nil) = %v, want NaN", got)
	}
}

func TestFormatting(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct{ got, want string }{
		{ratio(13, 10), "1.30x"},
		{ratio(1, 3), "0.33x"},
		{ratio(127, 1), "127x"},
		{ratio(12.34, 1), "12.3x"},
		{ratio(1, 0), "–"},
		{ratio(nan, 1), "–"},
		{ratio(1, nan), "–"},
		{seconds(0.8504), "850 ms"},
		{seconds(12.345), "12.35 s"},
		{seconds(169.4), "169 s"},
		{seconds(nan), "–"},
		{megabytes(1 << 30), "1024 MB"},
		{megabytes(nan), "–"},
		{spread([]float64{13, 11.9, 12}, seconds), " (11.90–13.00 s)"},
		{spread([]float64{0.85, 1.2}, seconds), " (850 ms–1.20 s)"},
		{spread([]float64{3}, seconds), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestTable(t *testing.T) {
	tb := &table{header: []string{"tool", "wall"}, right: []bool{false, true}}
	tb.add("floor", "1.00 s")
	tb.add("ctrllint (cold)", "12.30 s")
	want := `| tool            |    wall |
| --------------- | ------: |
| floor           |  1.00 s |
| ctrllint (cold) | 12.30 s |
`
	if got := tb.String(); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
	// Short columns still get a valid separator; "×" counts as one column.
	tb = &table{header: []string{"a", "×"}, right: []bool{false, true}}
	tb.add("x")
	want = `| a   |   × |
| --- | --: |
| x   |     |
`
	if got := tb.String(); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseStat(t *testing.T) {
	// The command name may hold spaces and parentheses.
	line := "4242 (go (vet) x) S 4200 4201 4201 0 -1 4194560 2961 0 0 0 5 1 0 0 20 0 8 0 1234 1265156096 9149 18446744073709551615 1 1 0 0 0 0 0 0 2143420159 0 0 0 17 1 0 0 0 0 0\n"
	g, rss, ok := parseStat([]byte(line))
	if !ok || g != 4201 || rss != 9149 {
		t.Errorf("parseStat = %d, %d, %v; want 4201, 9149, true", g, rss, ok)
	}
	for _, bad := range []string{"", "4242 (x", "4242 (x) S 1 2"} {
		if _, _, ok := parseStat([]byte(bad)); ok {
			t.Errorf("parseStat(%q) ok", bad)
		}
	}
	// Our own process group has at least us in it.
	if self, _, ok := parseStat(must(os.ReadFile("/proc/self/stat"))); ok && groupRSS(self) <= 0 {
		t.Errorf("groupRSS(own group) = 0")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		return nil
	}
	return b
}

func TestDetectCache(t *testing.T) {
	for _, tc := range []struct {
		help string
		want cacheSupport
	}{
		{"  -C dir\n  -cache dir\n    \tresult cache (default $CTRLLINT_CACHE)\n", cacheSupport{Flag: "cache"}},
		{"  -cache\n    \treuse results (kept in $CTRLLINT_CACHE) (default true)\n", cacheSupport{Env: "CTRLLINT_CACHE"}},
		{"  -cache\n", cacheSupport{}},
		{"  -cachedir dir\n", cacheSupport{}},
		{"Environment: CTRLLINT_CACHE names the result cache.\n", cacheSupport{Env: "CTRLLINT_CACHE"}},
		{"  -f string\n    \toutput format\n", cacheSupport{}},
	} {
		if got := detectCache(tc.help, "cache", "CTRLLINT_CACHE"); got != tc.want {
			t.Errorf("detectCache(%q) = %+v, want %+v", tc.help, got, tc.want)
		}
	}
	if got := detectCache("  -results dir\n", "results", ""); got.Flag != "results" || got.String() != "-results=DIR" {
		t.Errorf("a configured flag name: %+v", got)
	}
	if got := (cacheSupport{}).String(); got != "none" {
		t.Errorf("no cache: %q", got)
	}
}

func TestCorpusLookup(t *testing.T) {
	cfg, err := loadCorpus(locate(filepath.Join("hack", "corpus", "corpus.json")))
	if err != nil {
		t.Fatal(err)
	}
	es, err := cfg.lookup([]string{"kubernetes", "controller-runtime"})
	if err != nil {
		t.Fatal(err)
	}
	if es[0].Name != "kubernetes" || !slices.Contains(es[0].Patterns, "k8s.io/kubernetes/pkg/controller/...") {
		t.Errorf("kubernetes entry: %+v", es[0])
	}
	if got, want := es[0].dir("/c"), filepath.Join("/c", "kubernetes@"+es[0].Version); got != want {
		t.Errorf("dir = %s, want %s", got, want)
	}
	if _, err := cfg.lookup([]string{"no-such-entry"}); err == nil || !strings.Contains(err.Error(), "kubernetes") {
		t.Errorf("unknown entry: %v (want an error listing the known ones)", err)
	}
	std := entry{Name: "std", Patterns: []string{"std"}}
	if got := std.dir("/c"); got != filepath.Join("/c", "std") {
		t.Errorf("standard library entry dir = %s", got)
	}
	dir := t.TempDir()
	e := entry{Name: "x", Module: "example.com/x", Version: "v1.0.0"}
	if e.materialised(dir) {
		t.Error("materialised without a stamp")
	}
	os.MkdirAll(e.dir(dir), 0o755)
	os.WriteFile(filepath.Join(e.dir(dir), ".materialised"), []byte("x\n"), 0o644)
	if !e.materialised(dir) {
		t.Error("not materialised with a stamp")
	}
}

func TestFit(t *testing.T) {
	a, b, r2, ok := fit([]float64{1, 2, 3, 4}, []float64{3, 5, 7, 9})
	if !ok || math.Abs(a-1) > 1e-9 || math.Abs(b-2) > 1e-9 || math.Abs(r2-1) > 1e-9 {
		t.Errorf("fit = %v %v %v %v; want 1 2 1 true", a, b, r2, ok)
	}
	if _, _, _, ok := fit([]float64{1, 2}, []float64{1, 2}); ok {
		t.Error("fit of two points")
	}
	if _, _, _, ok := fit([]float64{2, 2, 2}, []float64{1, 2, 3}); ok {
		t.Error("fit with no spread in x")
	}
}

func secs(ds ...float64) []sample {
	var out []sample
	for _, d := range ds {
		out = append(out, sample{Wall: time.Duration(d * float64(time.Second)), CPU: time.Second, TreeRSS: 100 << 20, MaxRSS: 90 << 20})
	}
	return out
}

func testTarget() *targetResult {
	t := &targetResult{Entry: "kubernetes", Patterns: []string{"k8s.io/kubernetes/pkg/controller/..."}, Size: size{Packages: 10, Lines: 5000}}
	t.row(toolFloor, stateNone).Samples = secs(10, 11, 9)
	t.row(toolCtrllint, stateCold).Samples = secs(12, 14, 13)
	t.row(toolCtrllint, stateWarm).Samples = append(secs(0.5, 0.7), sample{Exit: 2, Err: "exit status 2", Stderr: "ctrllint: boom"})
	t.row(toolStaticcheck, stateCold).Samples = secs(100)
	t.row(toolStaticcheck, stateCold).Samples[0].TreeRSS = 50 << 20
	return t
}

func TestTargetTable(t *testing.T) {
	tt := testTarget()
	got := tt.table().String()
	for _, want := range []string{
		"| floor ", "10.00 s (9.00–11.00 s)", "1.30x", // ctrllint cold: 13 / 10
		"| ctrllint (warm) ", "600 ms (500–700 ms)", "2 (+1 failed)",
		"0.13x", // ctrllint cold / staticcheck cold
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	tt.row(toolStaticcheck, stateCold).Samples[0].Exit = 1
	tt.row(toolFloor, stateNone).Samples[0].Exit = 1
	notes := tt.notes(true)
	for _, want := range []string{
		"ctrllint (warm) failed 1 of 3 runs", "ctrllint: boom",
		"staticcheck (cold) exited 1 in 1 of 1 runs (findings reported)",
		"floor exited 1 in 1 of 3 runs (some packages did not load or type-check)",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// The scaling table's notes leave findings out.
	if notes := tt.notes(false); strings.Contains(notes, "findings") || !strings.Contains(notes, "floor exited 1") {
		t.Errorf("notes without findings:\n%s", notes)
	}
}

func TestVerdicts(t *testing.T) {
	vs := verdicts([]*targetResult{testTarget()}, []lspResult{
		{Name: "p", Saves: []time.Duration{800 * time.Millisecond, 900 * time.Millisecond, 2 * time.Second}},
		{Name: "q", Err: "boom"},
	}, nil)
	var lines []string
	for _, v := range vs {
		lines = append(lines, v.String())
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		"kubernetes: cold standalone run ≤ 1.3× the floor (wall): **met** (1.30x",
		"kubernetes: cold standalone run faster than staticcheck (cold): **met**",
		"kubernetes: cold standalone peak memory below staticcheck's (cold): **not met** (100 MB vs 50 MB)",
		"kubernetes: warm re-run with nothing changed < 1 s: **met** (600 ms)",
		"p: editor save → diagnostics < 1 s warm: **met** (median 900 ms)",
		"q: editor save → diagnostics < 1 s warm: not measured (failed: boom)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("verdicts lack %q:\n%s", want, got)
		}
	}
}

// The report survives its JSON (-render), missing values included.
func TestReportRoundTrip(t *testing.T) {
	tt := testTarget()
	r := &report{
		Rounds: 3, Order: []string{"floor"}, Targets: []*targetResult{tt},
		Scale:  []scalePoint{newScalePoint(tt), {Entry: "empty", Size: size{Packages: 3}}},
		LSP:    []lspResult{{Name: "p", Open: time.Second, Saves: []time.Duration{time.Second}}},
		Editor: editorSample(),
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if got, want := back.markdown(), r.markdown(); got != want {
		t.Errorf("markdown after a JSON round trip differs:\n%s\nwant:\n%s", got, want)
	}
	md := r.markdown()
	for _, want := range []string{"## kubernetes", "## The issue's targets", "## Time per package", "## Editor server", "| empty ", "## Editor, typing", "- editor: didChange → ctrllint's merged diagnostics < 1 s: **not met**"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestMeasureExitAndStderr(t *testing.T) {
	ok01 := func(exit int) bool { return exit == 0 || exit == 1 }
	s := measure(context.Background(), exec.Command("sh", "-c", "echo out; echo err >&2; exit 1"), 10*time.Millisecond, ok01)
	if s.Exit != 1 || s.Err != "" || strings.TrimSpace(s.Stderr) != "err" {
		t.Errorf("exit 1: %+v", s)
	}
	if s.TreeRSS < s.MaxRSS || s.MaxRSS <= 0 {
		t.Errorf("memory: tree %d, largest %d", s.TreeRSS, s.MaxRSS)
	}
	s = measure(context.Background(), exec.Command("sh", "-c", "exit 2"), 10*time.Millisecond, ok01)
	if s.Exit != 2 || s.Err != "exit status 2" {
		t.Errorf("exit 2: %+v", s)
	}
	s = measure(context.Background(), exec.Command(filepath.Join(t.TempDir(), "missing")), 10*time.Millisecond, ok01)
	if s.Exit != -1 || s.Err == "" {
		t.Errorf("missing binary: %+v", s)
	}
}

func TestTailBuffer(t *testing.T) {
	tb := &tailBuffer{max: 4}
	tb.Write([]byte("ab"))
	if tb.String() != "ab" {
		t.Errorf("got %q", tb.String())
	}
	tb.Write([]byte("cdef"))
	if tb.String() != "...\ncdef" {
		t.Errorf("got %q", tb.String())
	}
}

func TestSaltedCopy(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "tool")
	os.WriteFile(bin, []byte("#!/bin/sh\nexit 0\n"), 0o755)
	a, err := saltedCopy(bin, dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := saltedCopy(bin, dir)
	if err != nil {
		t.Fatal(err)
	}
	da, db := must(os.ReadFile(a)), must(os.ReadFile(b))
	if a == b || bytes.Equal(da, db) || !bytes.HasPrefix(da, []byte("#!/bin/sh\nexit 0\n")) {
		t.Errorf("copies %s and %s: %q, %q", a, b, da, db)
	}
	if st, err := os.Stat(a); err != nil || st.Mode()&0o100 == 0 {
		t.Errorf("copy not executable: %v %v", st, err)
	}
	if f := vetSaltFlag("x"); !strings.HasPrefix(f, "-printf.funcs=") {
		t.Errorf("vetSaltFlag = %q", f)
	}
}

func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"-rounds", "2", "-tools", "floor,ctrllint", "-targets", "a, b", "-o", "/x/r.md"})
	if err != nil {
		t.Fatal(err)
	}
	if o.rounds != 2 || !o.tools["floor"] || o.tools["vet"] || !slices.Equal(o.targets, []string{"a", "b"}) || o.rawOut != "/x/r.json" {
		t.Errorf("options: %+v", o)
	}
	if _, err := parseFlags([]string{"-tools", "floor,gopls"}); err == nil {
		t.Error("unknown tool accepted")
	}
	if _, err := parseFlags([]string{"-rounds", "0"}); err == nil {
		t.Error("-rounds 0 accepted")
	}
}

func TestSplitRE(t *testing.T) {
	m := splitRE.FindStringSubmatch("ctrllint: ./deployment: 0 findings in 9 files (load 1.031s, analysis 38ms)")
	if m == nil || m[1] != "1.031s" || m[2] != "38ms" {
		t.Errorf("split: %q", m)
	}
	m = splitRE.FindStringSubmatch("ctrllint: .: 2 findings in 1 files (load 950µs, analysis 1.2s)")
	if m == nil || m[1] != "950µs" {
		t.Errorf("split with µs: %q", m)
	}
}

func TestEntryPackages(t *testing.T) {
	cache := t.TempDir()
	plain := entry{Name: "plain", Patterns: []string{"example.com/a/..."}}
	if got, err := plain.packages(cache); err != nil || !slices.Equal(got, plain.Patterns) {
		t.Errorf("an entry without excludes: %v, %v; want its patterns", got, err)
	}
	ex := entry{Name: "ex", Module: "example.com/ex", Version: "v1.0.0", Patterns: []string{"example.com/ex/..."}, Exclude: []string{"example.com/ex/vendored"}}
	if _, err := ex.packages(cache); err == nil || !strings.Contains(err.Error(), "hack/corpus run -only ex") {
		t.Errorf("an entry with excludes, not materialised: %v; want an error saying how to materialise it", err)
	}
	if err := os.MkdirAll(ex.dir(cache), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ex.dir(cache), "packages.txt"), []byte("example.com/ex\nexample.com/ex/b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ex.packages(cache); err != nil || !slices.Equal(got, []string{"example.com/ex", "example.com/ex/b"}) {
		t.Errorf("an entry with excludes: %v, %v; want the materialised list", got, err)
	}
}
