// Package edit holds what the analyzers' suggested fixes share: finding the
// call an SSA position names, reading the indentation of a line, and
// inserting a statement before another.
package edit

import (
	"bytes"
	"go/ast"
	"go/token"
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// Indent returns the white space that starts pos's line ("\t" when the
// source cannot be read). Only the white space: on a line that holds more
// before pos (a function literal written on one line), the text before
// pos is code, and repeating it would duplicate it.
func Indent(pass *analysis.Pass, pos token.Pos) string {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return "\t"
	}
	var src []byte
	if pass.ReadFile != nil {
		src, _ = pass.ReadFile(tf.Name())
	}
	if src == nil {
		src, _ = os.ReadFile(tf.Name())
	}
	// The line in tf itself: tf.Line follows //line directives, which in
	// a file cgo rewrote name the user's lines, not tf's.
	start, off := tf.Offset(tf.LineStart(tf.PositionFor(pos, false).Line)), tf.Offset(pos)
	if src == nil || off > len(src) || start > off {
		return "\t"
	}
	line := src[start:off]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

// InsertBefore returns the edit that puts stmt (one or more lines, without
// a final newline) before the statement at pos, at its indentation. On a
// line where other code comes first (`func(obj interface{}) { p := ...`),
// the statement starts where pos is and what was at pos moves to a line
// of its own; gofmt, which -fix and the editors' quick fixes run, lays
// out the rest.
func InsertBefore(pass *analysis.Pass, pos token.Pos, stmt string) analysis.TextEdit {
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(stmt + "\n" + Indent(pass, pos))}
}

// FileOf is the file of the pass that holds pos, or nil.
func FileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// CallAt is the call expression whose opening parenthesis is at pos (where
// SSA places a call), or nil.
func CallAt(pass *analysis.Pass, pos token.Pos) *ast.CallExpr {
	if f := FileOf(pass, pos); f != nil {
		path, _ := astutil.PathEnclosingInterval(f, pos, pos)
		for _, n := range path {
			if call, ok := n.(*ast.CallExpr); ok && call.Lparen == pos {
				return call
			}
		}
	}
	return nil
}
