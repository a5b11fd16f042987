package edit

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// Checked wraps an analyzer's run function so that a suggested fix is
// reported only when the package, with the fix applied, still parses and
// type-checks: a fix that breaks the build (a one-line function literal
// the insertion did not expect, a variable left unused, an import no
// longer used) is worse than none, since -fix, golangci-lint --fix and an
// editor's quick fix all apply it without looking. The diagnostic itself
// is always reported; only the broken fix is dropped.
//
// The fixes of a package are checked together first: all of them that do
// not overlap, applied at once, cost one type check of the package. Only
// when that fails are they split in halves, and so on, to find the fixes
// that break it. A fix is made of independent edits that each analyzer
// keeps self-contained (its own import, its own names), so a set that
// type-checks vouches for each of its fixes alone.
//
// When the package as it is does not type-check here (an importer that
// cannot see a dependency the analysis saw), or a file to edit cannot be
// read as it was parsed, nothing can be told about the fixes, and they
// are reported unchecked.
func Checked(run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		var held []analysis.Diagnostic
		inner := *pass
		inner.Report = func(d analysis.Diagnostic) {
			if len(d.SuggestedFixes) == 0 {
				pass.Report(d)
				return
			}
			held = append(held, d)
		}
		res, err := run(&inner)
		ok := checkFixes(pass, held)
		for i, d := range held {
			var kept []analysis.SuggestedFix
			for j, f := range d.SuggestedFixes {
				if ok[fixID{i, j}] {
					kept = append(kept, f)
				}
			}
			d.SuggestedFixes = kept
			pass.Report(d)
		}
		return res, err
	}
}

// fixID is a fix of the held diagnostics: the diagnostic's index, the
// fix's index in it.
type fixID struct{ diag, fix int }

// A candidate is a fix to check, with its edits.
type candidate struct {
	id    fixID
	edits []fileEdit
}

// fixCheck checks the fixes of one package.
type fixCheck struct {
	pass *analysis.Pass
	ok   map[fixID]bool
	// checkable is whether the package as it is type-checks here, once
	// asked (nil before).
	checkable *bool
	// deps are the types of the packages the package reaches, by path,
	// once a check needed them.
	deps map[string]*types.Package
}

// checkFixes returns the fixes of diags that keep the package building.
func checkFixes(pass *analysis.Pass, diags []analysis.Diagnostic) map[fixID]bool {
	c := &fixCheck{pass: pass, ok: make(map[fixID]bool)}
	var remaining []candidate
	for i, d := range diags {
		for j := range d.SuggestedFixes {
			if es, valid := c.edits(&d.SuggestedFixes[j]); valid {
				remaining = append(remaining, candidate{fixID{i, j}, es})
			}
		}
	}
	for len(remaining) > 0 {
		// The fixes that apply together, in order; the others wait
		// for the next round.
		var batch, rest []candidate
		for _, cand := range remaining {
			if slices.ContainsFunc(batch, func(b candidate) bool { return overlap(b.edits, cand.edits) }) {
				rest = append(rest, cand)
			} else {
				batch = append(batch, cand)
			}
		}
		c.settle(batch)
		remaining = rest
	}
	return c.ok
}

// settle decides the fixes of batch, which do not overlap: all of them
// when they type-check together, else each half on its own.
func (c *fixCheck) settle(batch []candidate) {
	var edits []fileEdit
	for _, cand := range batch {
		edits = append(edits, cand.edits...)
	}
	if c.typeChecks(edits) {
		for _, cand := range batch {
			c.ok[cand.id] = true
		}
		return
	}
	if !c.packageChecks() {
		for _, cand := range batch {
			c.ok[cand.id] = true // nothing can be told here
		}
		return
	}
	if len(batch) == 1 {
		return
	}
	c.settle(batch[:len(batch)/2])
	c.settle(batch[len(batch)/2:])
}

// packageChecks reports whether the package, unchanged, type-checks here.
func (c *fixCheck) packageChecks() bool {
	if c.checkable == nil {
		ok := c.check(c.pass.Files) == nil
		c.checkable = &ok
	}
	return *c.checkable
}

// A fileEdit is a suggested fix's edit in byte offsets of its file.
type fileEdit struct {
	file       *token.File
	start, end int
	text       string
}

// edits converts fix's edits to offsets, or reports that one is invalid.
func (c *fixCheck) edits(fix *analysis.SuggestedFix) ([]fileEdit, bool) {
	var out []fileEdit
	for _, te := range fix.TextEdits {
		end := te.End
		if !end.IsValid() {
			end = te.Pos
		}
		tf := c.pass.Fset.File(te.Pos)
		if tf == nil || c.pass.Fset.File(end) != tf || end < te.Pos {
			return nil, false
		}
		out = append(out, fileEdit{tf, tf.Offset(te.Pos), tf.Offset(end), string(te.NewText)})
	}
	return out, len(out) > 0
}

// overlap reports whether some edit of a conflicts with some edit of b.
func overlap(a, b []fileEdit) bool {
	for _, x := range a {
		if slices.ContainsFunc(b, func(y fileEdit) bool { return conflicts(x, y) }) {
			return true
		}
	}
	return false
}

// conflicts reports whether edits a and b cannot both apply: overlapping
// ranges, or two different insertions at one point. Identical edits are
// one.
func conflicts(a, b fileEdit) bool {
	if a.file != b.file || a == b {
		return false
	}
	if a.start == a.end && b.start == b.end {
		return a.start == b.start
	}
	return a.start < b.end && b.start < a.end || a.start == a.end && a.start > b.start && a.start < b.end ||
		b.start == b.end && b.start > a.start && b.start < a.end
}

// source is the content of the file the pass parsed as tf, or an error
// when it cannot be had: a file changed since (on disk, where a driver's
// ReadFile does not give the editor's unsaved text) has another size.
func (c *fixCheck) source(tf *token.File) ([]byte, error) {
	var b []byte
	var err error
	if c.pass.ReadFile != nil {
		b, err = c.pass.ReadFile(tf.Name())
	}
	if c.pass.ReadFile == nil || err != nil {
		b, err = os.ReadFile(tf.Name())
	}
	if err == nil && len(b) != tf.Size() {
		err = fmt.Errorf("%s has %d bytes, %d parsed", tf.Name(), len(b), tf.Size())
	}
	return b, err
}

// typeChecks reports whether the package parses and type-checks with
// the edits applied. It is true when a file to edit cannot be read as it
// was parsed: nothing can be told then (see Checked), and the front end
// that applies the fix checks the file's content first.
func (c *fixCheck) typeChecks(edits []fileEdit) bool {
	byFile := make(map[*token.File][]fileEdit)
	for _, e := range edits {
		if !slices.Contains(byFile[e.file], e) {
			byFile[e.file] = append(byFile[e.file], e)
		}
	}
	files := slices.Clone(c.pass.Files)
	for i, f := range files {
		tf := c.pass.Fset.File(f.Pos())
		es := byFile[tf]
		if len(es) == 0 {
			continue
		}
		src, err := c.source(tf)
		if err != nil {
			return true
		}
		slices.SortStableFunc(es, func(x, y fileEdit) int {
			return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(x.end, y.end))
		})
		var out bytes.Buffer
		last := 0
		for _, e := range es {
			if e.start < last || e.end > len(src) {
				return false // edits of one fix that overlap, or a file changed
			}
			out.Write(src[last:e.start])
			out.WriteString(e.text)
			last = e.end
		}
		out.Write(src[last:])
		nf, err := parser.ParseFile(c.pass.Fset, tf.Name(), out.Bytes(), parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		files[i] = nf
	}
	return c.check(files) == nil
}

// check type-checks files as the pass's package, against the types of
// its dependencies.
func (c *fixCheck) check(files []*ast.File) error {
	if c.deps == nil {
		c.deps = make(map[string]*types.Package)
		var add func([]*types.Package)
		add = func(ps []*types.Package) {
			for _, p := range ps {
				if c.deps[p.Path()] == nil {
					c.deps[p.Path()] = p
					add(p.Imports())
				}
			}
		}
		add(c.pass.Pkg.Imports())
	}
	deps := c.deps
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if p := deps[path]; p != nil {
				return p, nil
			}
			return nil, fmt.Errorf("%s is not among the dependencies", path)
		}),
		Sizes:     c.pass.TypesSizes,
		GoVersion: c.pass.Pkg.GoVersion(),
	}
	_, err := conf.Check(c.pass.Pkg.Path(), c.pass.Fset, files, nil)
	return err
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
