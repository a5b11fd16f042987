package load

import (
	"context"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// A dependency type-checked from source leaves its export data, and the
// next run decodes it instead of type-checking it again: here the
// standard library, which a build cache of its own has not built.
func TestExportsKept(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"a/a.go": "package a\n\nimport \"strings\"\n\nfunc A() string { var b strings.Builder; b.WriteString(\"a\"); return b.String() }\n",
		"b/b.go": "package b\n\nimport (\n\t\"strings\"\n\n\t\"example.com/m/a\"\n)\n\nvar B = strings.ToUpper(a.A())\n",
	})
	exportDir := t.TempDir()
	opts := &Options{
		Dir: dir, Patterns: []string{"./..."}, ExportDir: exportDir,
		Env: append(os.Environ(), "GOCACHE="+t.TempDir(), "GOFLAGS=", "CGO_ENABLED=0"),
	}
	load := func(step string) *Listing {
		t.Helper()
		l, err := List(context.Background(), opts, Unbuilt)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		checked, err := checkListing(context.Background(), opts, l)
		if err != nil || len(checked) != 2 {
			t.Fatalf("%s: %d roots type-checked: %v", step, len(checked), err)
		}
		if b := checked[1]; b.PkgPath != "example.com/m/b" || b.Types.Scope().Lookup("B").Type().String() != "string" {
			t.Fatalf("%s: b type-checked as %v", step, b.Types.Scope().Names())
		}
		return l
	}
	find := func(l *Listing, path string) *packages.Package {
		var s *packages.Package
		packages.Visit(l.Roots, nil, func(p *packages.Package) {
			if p.PkgPath == path {
				s = p
			}
		})
		return s
	}
	strs := func(l *Listing) *packages.Package { return find(l, "strings") }

	first := load("first run")
	if !first.Source[strs(first).ID] {
		t.Fatalf("first run: strings has export data %q, want it from source", strs(first).ExportFile)
	}
	if !unbuiltBefore(opts) {
		t.Errorf("first run: not remembered as unbuilt")
	}
	second := load("second run")
	s := strs(second)
	if second.Source[s.ID] || !strings.HasPrefix(s.ExportFile, exportDir) {
		t.Fatalf("second run: strings is source %v, export data %q: want the first run's", second.Source[s.ID], s.ExportFile)
	}
	for id := range second.Source {
		if id != "example.com/m/a" && id != "example.com/m/b" {
			t.Errorf("second run: %s type-checked from source again", id)
		}
	}
	// What only strings imports is neither kept nor type-checked: the
	// data kept of strings holds what its importers see of it.
	if u := find(second, "unicode/utf8"); u == nil || second.Source[u.ID] || u.ExportFile != "" {
		t.Errorf("second run: unicode/utf8 %+v, source %v: want neither export data nor a type-check", u, u != nil && second.Source[u.ID])
	}

	// An entry that fails its check is type-checked again, and written
	// again.
	entry := s.ExportFile
	data, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 1
	if err := os.WriteFile(entry, data, 0o644); err != nil {
		t.Fatal(err)
	}
	third := load("corrupt entry")
	if s := strs(third); !third.Source[s.ID] || s.ExportFile != "" {
		t.Errorf("corrupt entry: strings is source %v, export data %q", third.Source[s.ID], s.ExportFile)
	}
	if _, err := readEntry(entry); err != nil {
		t.Errorf("corrupt entry not written again: %v", err)
	}
	if fourth := load("rewritten"); fourth.Source[strs(fourth).ID] {
		t.Errorf("rewritten: strings from source again")
	}

	// The workspace's own packages are never kept.
	n := 0
	filepath.WalkDir(exportDir, func(path string, d os.DirEntry, err error) error {
		if strings.HasSuffix(path, ".export") {
			n++
		}
		return nil
	})
	x := openExports(context.Background(), opts)
	packages.Visit(second.Roots, nil, func(p *packages.Package) {
		if k := x.key(p); (k == "") != strings.HasPrefix(p.PkgPath, "example.com/") && p.PkgPath != "unsafe" {
			t.Errorf("%s: key %q", p.ID, k)
		}
	})
	if n == 0 || n >= len(x.keys) {
		t.Errorf("%d entries for %d packages", n, len(x.keys))
	}
}

// A listing that finds everything built forgets that an earlier one did
// not, so that the next run hedges again; what is remembered is the go
// build cache's.
func TestUnbuiltForgotten(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{"a/a.go": "package a\n"})
	opts := &Options{Dir: dir, Patterns: []string{"./..."}, ExportDir: t.TempDir()}
	rememberUnbuilt(opts, true)
	if !unbuiltBefore(opts) {
		t.Fatal("not remembered")
	}
	if _, err := List(context.Background(), opts, Unbuilt); err != nil {
		t.Fatal(err)
	}
	if unbuiltBefore(opts) {
		t.Error("built, yet still remembered as unbuilt")
	}
	// Another graph built into the same build cache shares it; one
	// built into another does not.
	rememberUnbuilt(opts, true)
	same := *opts
	same.Dir, same.Patterns = t.TempDir(), []string{"./b"}
	other := *opts
	other.Env = append(os.Environ(), "GOCACHE="+t.TempDir())
	if !unbuiltBefore(&same) || unbuiltBefore(&other) {
		t.Errorf("remembered for another graph, same build cache: %v; another build cache: %v", unbuiltBefore(&same), unbuiltBefore(&other))
	}
}

// Entries unused for trimAfter go, at most once per trimEvery.
func TestExportsTrimmed(t *testing.T) {
	dir := t.TempDir()
	x := &exports{dir: dir}
	now := time.Now()
	old, recent := filepath.Join(dir, "ab", "old.export"), filepath.Join(dir, "cd", "recent.export")
	mark := filepath.Join(dir, "unbuilt", "0123")
	for _, f := range []string{old, recent, mark} {
		WriteAtomically(f, []byte("x"))
	}
	age := func(f string, d time.Duration) {
		if err := os.Chtimes(f, now.Add(-d), now.Add(-d)); err != nil {
			t.Fatal(err)
		}
	}
	age(old, trimAfter+time.Hour)
	age(mark, trimAfter+time.Hour)
	age(recent, trimAfter-time.Hour)
	x.trim(now)
	exists := func(f string) bool { _, err := os.Stat(f); return err == nil }
	if exists(old) || exists(mark) || !exists(recent) {
		t.Errorf("after trimming: old %v, mark %v, recent %v; want only recent", exists(old), exists(mark), exists(recent))
	}
	// Trimmed already today: nothing goes, however old.
	age(recent, trimAfter+time.Hour)
	x.trim(now.Add(time.Hour))
	if !exists(recent) {
		t.Error("trimmed twice within trimEvery")
	}
	x.trim(now.Add(trimEvery + time.Hour))
	if exists(recent) {
		t.Error("not trimmed after trimEvery")
	}
}

// A dependency nobody edits is type-checked lean, for its declarations
// only; a root, and a dependency of the workspace, whole.
func TestLeanDependencies(t *testing.T) {
	dir := testanalyzers.WriteModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./dep\n",
		"dep/go.mod": "module example.com/dep\n\ngo 1.22\n",
		"dep/d/d.go": "package d\n\nimport \"strings\"\n\nfunc D() string { return strings.ToUpper(\"d\") }\n",
		"a/a.go":     "package a\n\nimport \"example.com/dep/d\"\n\nvar A = d.D()\n",
	})
	opts := &Options{Dir: dir, Patterns: []string{"./..."}, FromSource: true}
	l, err := List(context.Background(), opts, Unbuilt)
	if err != nil {
		t.Fatal(err)
	}
	deps := NewDeps(token.NewFileSet(), l.Roots, l)
	lean := map[string]bool{}
	packages.Visit(l.Roots, nil, func(p *packages.Package) {
		if !l.Source[p.ID] {
			return
		}
		pkg := Root(p, deps.FileSet())
		Parse(pkg, nil)
		if ok, _ := CheckListed(p, pkg, deps, p.PkgPath != "example.com/m/a"); !ok {
			t.Fatalf("%s: %v", p.ID, pkg.Errors)
		}
		lean[p.PkgPath] = pkg.TypesInfo == nil
	})
	if !lean["strings"] || lean["example.com/dep/d"] || lean["example.com/m/a"] {
		t.Errorf("lean: strings %v, the workspace's dependency %v, the root %v; want only strings", lean["strings"], lean["example.com/dep/d"], lean["example.com/m/a"])
	}
}

// Which packages a listing type-checks when some have kept export data:
// a graph made by hand. r is the root; k and k2 are kept, n and m are
// neither built nor kept.
func TestSourceOfKeptData(t *testing.T) {
	mod := &packages.Module{Path: "example.com/m"}
	dep := &packages.Module{Path: "example.com/dep", Version: "v1.0.0"}
	pkg := func(path string, m *packages.Module, imports ...*packages.Package) *packages.Package {
		p := &packages.Package{ID: path, PkgPath: path, Module: m, Imports: map[string]*packages.Package{}}
		for _, imp := range imports {
			p.Imports[imp.PkgPath] = imp
		}
		return p
	}
	sorted := func(m map[string]bool) []string {
		var out []string
		for id, ok := range m {
			if ok {
				out = append(out, id)
			}
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		name  string
		roots func() []*packages.Package
		whole []string
		want  []string
	}{{
		// n is below k only: k's data holds what r sees of it.
		name: "below kept",
		roots: func() []*packages.Package {
			n := pkg("n", dep)
			return []*packages.Package{pkg("r", mod, pkg("k", dep, n))}
		},
		want: []string{"r"},
	}, {
		// m, from source, imports n, so n is from source, and k, whose
		// data mentions n, would see other types of it: k is too.
		name: "below kept and from source",
		roots: func() []*packages.Package {
			n := pkg("n", dep)
			return []*packages.Package{pkg("r", mod, pkg("k", dep, n), pkg("m", dep, n))}
		},
		want: []string{"k", "m", "n", "r"},
	}, {
		// A package decoded whole needs types of its own.
		name: "whole",
		roots: func() []*packages.Package {
			return []*packages.Package{pkg("r", mod, pkg("k", dep, pkg("n", dep)))}
		},
		whole: []string{"n"},
		want:  []string{"k", "n", "r"},
	}, {
		// A package of the root's module is never decoded from kept
		// data: the driver may type-check it for its facts.
		name: "root's module",
		roots: func() []*packages.Package {
			return []*packages.Package{pkg("r", mod, pkg("k2", mod, pkg("k", dep)))}
		},
		want: []string{"k2", "r"},
	}} {
		kept := func(p *packages.Package) bool { return p.ID == "k" || p.ID == "k2" }
		got := sorted(sourceOf(tc.roots(), map[string]bool{}, nil, kept, tc.whole))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: from source %q, want %q", tc.name, got, tc.want)
		}
	}
}
