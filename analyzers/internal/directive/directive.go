// Package directive implements ctrllint's in-source suppression, inside each
// analyzer rather than in a front end: golangci-lint's //nolint:ctrllint
// silences the whole plugin, so the per-analyzer directive has to work in the
// analyzer itself to mean the same thing under ctrllint, go vet -vettool,
// golangci-lint and the editor server.
//
// Two forms, each with a mandatory reason (a suppression nobody can explain
// is a finding waiting to come back):
//
//	//ctrllint:ignore NAME[,NAME...] reason   the line it ends, or the next line
//	//ctrllint:file-ignore NAME[,NAME...] reason   the whole file
//
// A directive without a reason, or one that suppresses nothing, is itself
// reported, as staticcheck does: stale suppressions hide the next real bug.
package directive

import (
	"bytes"
	"go/ast"
	"go/token"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
)

const (
	lineVerb = "//ctrllint:ignore"
	fileVerb = "//ctrllint:file-ignore"
)

// Honour wraps an analyzer's run function so that diagnostics covered by a
// directive naming the analyzer are dropped, diagnostics in generated files
// are dropped, and malformed or unused directives are reported.
func Honour(name string, run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		dirs := collect(pass, name)
		generated := GeneratedFiles(pass)
		report := pass.Report
		inner := *pass
		inner.Report = func(d analysis.Diagnostic) {
			file := pass.Fset.File(d.Pos)
			if file == nil {
				report(d)
				return
			}
			if generated[file.Name()] {
				return // generated code is fixed at its generator, not here
			}
			line := rawLine(file, d.Pos)
			for _, dir := range dirs {
				if dir.covers(file.Name(), line) {
					dir.used = true
					return
				}
			}
			report(d)
		}
		res, err := run(&inner)
		if err != nil {
			return res, err
		}
		for _, dir := range dirs {
			switch {
			case dir.malformed:
				report(analysis.Diagnostic{Pos: dir.pos, Category: "directive",
					Message: strings.TrimPrefix(dir.verb, "//") + " directive for " + name + " needs a reason after the analyzer name"})
			case !dir.used && !generated[dir.file]:
				report(analysis.Diagnostic{Pos: dir.pos, Category: "directive",
					Message: strings.TrimPrefix(dir.verb, "//") + " directive for " + name + " suppresses nothing: remove it"})
			}
		}
		return res, nil
	}
}

type directive struct {
	verb      string
	pos       token.Pos
	file      string
	line      int // first covered line; 0 for the whole file
	lastLine  int
	malformed bool // no reason given: reported, never honoured
	used      bool
}

func (d *directive) covers(file string, line int) bool {
	if d.malformed || file != d.file {
		return false
	}
	return d.line == 0 || (line >= d.line && line <= d.lastLine)
}

// collect finds the directives in the pass's files that name analyzer name.
func collect(pass *analysis.Pass, name string) []*directive {
	var out []*directive
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf == nil {
			continue
		}
		var src []byte // read lazily: most files have no directive
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				verb, names, reason, ok := Parse(c.Text)
				if !ok || !contains(names, name) {
					continue // not a ctrllint directive, or not for this analyzer
				}
				d := &directive{verb: verb, pos: c.Pos(), file: tf.Name(), malformed: reason == ""}
				if verb == lineVerb {
					line := rawLine(tf, c.Pos())
					if src == nil {
						src = readFile(pass, tf.Name())
					}
					d.line, d.lastLine = line, line
					if ownLine(src, tf, c.Pos()) {
						// A comment on its own line speaks for the next line.
						d.line, d.lastLine = line+1, line+1
					}
				}
				out = append(out, d)
			}
		}
	}
	return out
}

// Parse splits a comment into a ctrllint directive: its verb, the analyzer
// names and the reason. ok is false when the comment is not a directive.
func Parse(text string) (verb string, names []string, reason string, ok bool) {
	for _, v := range []string{fileVerb, lineVerb} {
		rest, found := strings.CutPrefix(text, v)
		if !found || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return v, nil, "", true
		}
		for n := range strings.SplitSeq(fields[0], ",") {
			if n != "" {
				names = append(names, n)
			}
		}
		return v, names, strings.Join(fields[1:], " "), true
	}
	return "", nil, "", false
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func readFile(pass *analysis.Pass, name string) []byte {
	if pass.ReadFile != nil {
		if b, err := pass.ReadFile(name); err == nil {
			return b
		}
	}
	b, _ := os.ReadFile(name)
	return b
}

// rawLine is pos's line in tf itself. tf.Line follows //line directives,
// which in a file cgo rewrote name the user's lines, and tf.LineStart of
// such a line is somewhere else in tf.
func rawLine(tf *token.File, pos token.Pos) int { return tf.PositionFor(pos, false).Line }

// ownLine reports whether only white space precedes pos on its line.
func ownLine(src []byte, tf *token.File, pos token.Pos) bool {
	off := tf.Offset(pos)
	start := tf.Offset(tf.LineStart(rawLine(tf, pos)))
	if src == nil || off > len(src) || start > off {
		return false
	}
	return len(bytes.TrimSpace(src[start:off])) == 0
}

// GeneratedFiles returns the names (as the file set has them) of the pass's
// generated files (IsGenerated): the files whose findings Honour drops, so
// that analyzers can leave out the work that would only find those. It is
// decided afresh for each pass, from the files' own comments.
//
// staticcheck's analyzer for the same question (honnef.co/go/tools'
// analysis/facts/generated, which also names the generator) does not fit:
// it reads each file from disk by name, not the pass's syntax (the editor
// server analyses unsaved text), takes such a line anywhere in the file,
// not only before the package clause, and calls every file cmd/cgo
// rewrote generated, where a hand-written cgo file is the user's
// (IsGenerated). ctrllint needs no more than whether a file is generated.
func GeneratedFiles(pass *analysis.Pass) map[string]bool {
	m := make(map[string]bool)
	for _, f := range pass.Files {
		if IsGenerated(pass.Fset, f) {
			if tf := pass.Fset.File(f.Pos()); tf != nil {
				m[tf.Name()] = true
			}
		}
	}
	return m
}

// InGenerated reports whether pos lies in one of the files of generated
// (GeneratedFiles).
func InGenerated(fset *token.FileSet, generated map[string]bool, pos token.Pos) bool {
	if len(generated) == 0 {
		return false
	}
	tf := fset.File(pos)
	return tf != nil && generated[tf.Name()]
}

// cgoHeader is the first line of every file cmd/cgo writes.
const cgoHeader = "// Code generated by cmd/cgo; DO NOT EDIT."

// IsGenerated reports whether f is generated code, as its author wrote it.
// A file that imports "C" is analysed as cmd/cgo rewrote it, which carries
// cgo's own "Code generated" header and then, after a //line directive back
// to the user's file, that file's text: whether it is generated is decided
// by the comments that map to the user's file, not by cgo's header.
func IsGenerated(fset *token.FileSet, f *ast.File) bool {
	if !ast.IsGenerated(f) {
		return false
	}
	orig := CgoSource(fset, f)
	if orig == "" {
		return true
	}
	var own []*ast.CommentGroup
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			// By comment: cgo's //line directive starts the group of the
			// user's first comments.
			if c.Pos() < f.Package && fset.PositionFor(c.Pos(), true).Filename == orig {
				own = append(own, &ast.CommentGroup{List: []*ast.Comment{c}})
			}
		}
	}
	return ast.IsGenerated(&ast.File{Package: f.Package, Comments: own})
}

// CgoSource returns the user's file that f, written by cmd/cgo, was made
// from (where its package clause maps to through //line), or "" when f is
// not cmd/cgo's rewrite of a user's file (cgo's own _cgo_gotypes.go maps
// nowhere, and other generators' //line directives, such as goyacc's to a
// grammar, are not cgo's).
func CgoSource(fset *token.FileSet, f *ast.File) string {
	tf := fset.File(f.Pos())
	if tf == nil || len(f.Comments) == 0 || len(f.Comments[0].List) == 0 || f.Comments[0].List[0].Text != cgoHeader {
		return ""
	}
	orig := fset.PositionFor(f.Package, true).Filename
	if orig == tf.Name() || !strings.HasSuffix(orig, ".go") {
		return ""
	}
	return orig
}
