package driver

import (
	"cmp"
	"errors"
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/ctrllint/ctrllint/internal/crash"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// collect adds the root actions' diagnostics and failures to res, each
// finding once: the same file is analysed in more than one package when a
// pattern names both p and its test variant, and it must be reported once.
func collect(res *Result, graph *checker.Graph, orig map[*analysis.Analyzer]*analysis.Analyzer) {
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		a := orig[act.Analyzer]
		ps := newPositions(act.Package)
		for _, d := range act.Diagnostics {
			f := convert(ps, a, d)
			f.Package = act.Package.ID
			res.Findings = append(res.Findings, f)
		}
		res.addParsed(ps.digests())
		if act.Err != nil {
			ae := &AnalyzerError{Analyzer: a.Name, Package: act.Package.ID, Err: act.Err}
			// The checker says only "failed prerequisites"; name the
			// analyzer that actually failed and its error.
			if cause := rootCause(act); cause != act {
				ae.Err = fmt.Errorf("required analyzer %s failed: %w", orig[cause.Analyzer].Name, cause.Err)
			}
			var p *crash.Panic
			if errors.As(ae.Err, &p) {
				ae.Stack = p.Stack
				if p.Pos.IsValid() {
					ae.Pos = finding.Position{File: p.Pos.Filename, Offset: p.Pos.Offset, Line: p.Pos.Line, Column: p.Pos.Column}
				}
			}
			res.Errors = append(res.Errors, ae)
		}
	}
	res.Findings = finding.Dedup(res.Findings)
}

func rootCause(act *checker.Action) *checker.Action {
	for _, d := range act.Deps {
		if d.Err != nil {
			return rootCause(d)
		}
	}
	return act
}

// sortErrors puts analyzer failures in the order every output uses.
func sortErrors(es []*AnalyzerError) {
	slices.SortFunc(es, func(x, y *AnalyzerError) int {
		return cmp.Or(cmp.Compare(x.Package, y.Package), cmp.Compare(x.Analyzer, y.Analyzer))
	})
}

func convert(ps *positions, a *analysis.Analyzer, d analysis.Diagnostic) finding.Finding {
	f := finding.Finding{
		Analyzer: a.Name,
		Category: d.Category,
		Message:  strings.TrimSpace(d.Message),
		URL:      d.URL,
		Pos:      ps.at(d.Pos),
	}
	f.End = f.Pos
	if d.End.IsValid() && d.End >= d.Pos {
		f.End = ps.at(d.End)
	}
fixes:
	for _, sf := range d.SuggestedFixes {
		fix := finding.Fix{Message: sf.Message}
		for _, te := range sf.TextEdits {
			end := te.End
			if !end.IsValid() {
				end = te.Pos
			}
			e := finding.Edit{Pos: position(ps.fset, te.Pos), End: position(ps.fset, end), NewText: string(te.NewText)}
			if ps.cgo[e.Pos.File] {
				var ok bool
				if e, ok = ps.edit(e, te.Pos, end); !ok {
					continue fixes // no faithful edit of the user's file: the finding stands without this fix
				}
			}
			fix.Edits = append(fix.Edits, e)
		}
		f.Fixes = append(f.Fixes, fix)
	}
	return f
}

// position is pos in the file parsed, ignoring //line directives.
func position(fset *token.FileSet, pos token.Pos) finding.Position {
	if !pos.IsValid() {
		return finding.Position{}
	}
	tf := fset.File(pos)
	if tf == nil {
		return finding.Position{}
	}
	p := tf.PositionFor(pos, false)
	return finding.Position{File: p.Filename, Offset: p.Offset, Line: p.Line, Column: p.Column}
}
