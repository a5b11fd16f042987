// Package edit holds what the analyzers' suggested fixes share: finding the
// call an SSA position names, reading the indentation of a line, and
// inserting a statement before another.
package edit

import (
	"go/ast"
	"go/token"
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// Indent returns the white space that starts pos's line ("\t" when the
// source cannot be read).
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
	return string(src[start:off])
}

// InsertBefore returns the edit that puts stmt (one or more lines, without
// a final newline) before the statement at pos, at its indentation.
func InsertBefore(pass *analysis.Pass, pos token.Pos, stmt string) analysis.TextEdit {
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(stmt + "\n" + Indent(pass, pos))}
}

// CallAt is the call expression whose opening parenthesis is at pos (where
// SSA places a call), or nil.
func CallAt(pass *analysis.Pass, pos token.Pos) *ast.CallExpr {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, pos, pos)
			for _, n := range path {
				if call, ok := n.(*ast.CallExpr); ok && call.Lparen == pos {
					return call
				}
			}
		}
	}
	return nil
}
