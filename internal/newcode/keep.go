package newcode

import (
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// Keep returns the findings that are new code, in their order:
//
//   - a finding with a line of its range [Pos.Line, End.Line] added or
//     changed (an untracked file's lines all are);
//   - a finding inside a top-level declaration that has lines added,
//     changed or removed: a function from its doc comment to its closing
//     brace, or one spec of a var, const or type declaration. Most of
//     ctrllint's findings are about something missing further on (the
//     Done() for a Get(), the tombstone case, the DeepCopy), so the
//     change that causes one is often not on its line: a reviewer of the
//     function sees it.
//
// A finding without a file is kept: there is no line to judge it by.
func (c *Changes) Keep(fs []finding.Finding) []finding.Finding {
	units := map[string][]unit{} // by file, parsed once
	var out []finding.Finding
	for _, f := range fs {
		if f.Pos.File == "" {
			out = append(out, f)
			continue
		}
		l := c.lookup(f.Pos.File)
		if l == nil {
			continue // not changed, or outside the repository
		}
		end := f.Pos.Line
		if f.End.File == f.Pos.File && f.End.Line > end {
			end = f.End.Line
		}
		if l.addedIn(f.Pos.Line, end) {
			out = append(out, f)
			continue
		}
		us, ok := units[f.Pos.File]
		if !ok {
			us = declUnits(f.Pos.File)
			units[f.Pos.File] = us
		}
		for _, u := range us {
			if u.start <= f.Pos.Offset && f.Pos.Offset < u.end {
				if l.addedIn(u.from, u.to) || l.removedIn(u.from, u.to) {
					out = append(out, f)
				}
				break
			}
		}
	}
	return out
}

// A unit is a top-level declaration whose change makes the findings in it
// new: byte offsets [start, end) and lines from..to.
type unit struct {
	start, end int
	from, to   int
}

// declUnits parses file and returns its units. A file that does not parse
// (it changed since it was analysed) has none: its findings are judged by
// their own lines only.
func declUnits(file string) []unit {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var us []unit
	add := func(doc *ast.CommentGroup, n ast.Node) {
		start := n.Pos()
		if doc != nil {
			start = doc.Pos()
		}
		// The file's own lines, which git compares, not //line
		// directives' ones.
		from, to := fset.PositionFor(start, false), fset.PositionFor(n.End(), false)
		us = append(us, unit{start: from.Offset, end: to.Offset, from: from.Line, to: to.Line})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			add(d.Doc, d)
		case *ast.GenDecl:
			if !d.Lparen.IsValid() {
				add(d.Doc, d) // one spec: the declaration and its doc
				continue
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					add(s.Doc, s)
				case *ast.TypeSpec:
					add(s.Doc, s)
				}
			}
		}
	}
	return us
}
