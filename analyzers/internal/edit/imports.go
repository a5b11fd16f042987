package edit

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// DropImports returns the edits that delete the imports of file that a
// replacement of [from, to) leaves unused: every use of the import's name
// in the file is inside the range. A fix that rewrites
// `c.client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})` into a
// lister's Get takes away what may be the file's last use of metav1, and
// Go refuses an unused import.
func DropImports(pass *analysis.Pass, file *ast.File, from, to token.Pos) []analysis.TextEdit {
	uses := make(map[*types.PkgName][2]int) // inside, outside
	ast.Inspect(file, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		if pn, ok := pass.TypesInfo.Uses[id].(*types.PkgName); ok {
			c := uses[pn]
			if from <= id.Pos() && id.End() <= to {
				c[0]++
			} else {
				c[1]++
			}
			uses[pn] = c
		}
		return true
	})
	var edits []analysis.TextEdit
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		var dropped []*ast.ImportSpec
		for _, s := range gd.Specs {
			spec := s.(*ast.ImportSpec)
			pn, _ := importName(pass, spec).(*types.PkgName)
			if c, ok := uses[pn]; pn != nil && ok && c[0] > 0 && c[1] == 0 {
				dropped = append(dropped, spec)
			}
		}
		switch {
		case len(dropped) == 0:
		case len(dropped) == len(gd.Specs):
			edits = append(edits, analysis.TextEdit{Pos: gd.Pos(), End: gd.End()})
		default:
			for _, spec := range dropped {
				edits = append(edits, specLine(pass, gd, spec))
			}
		}
	}
	return edits
}

// importName is the name spec declares in its file.
func importName(pass *analysis.Pass, spec *ast.ImportSpec) types.Object {
	if spec.Name != nil {
		return pass.TypesInfo.Defs[spec.Name]
	}
	return pass.TypesInfo.Implicits[spec]
}

// specLine is the edit deleting spec from its parenthesized block: its
// whole line when it is alone there, as gofmt leaves it.
func specLine(pass *analysis.Pass, gd *ast.GenDecl, spec *ast.ImportSpec) analysis.TextEdit {
	from, to := spec.Pos(), spec.End()
	if spec.Doc != nil {
		from = spec.Doc.Pos()
	}
	if spec.Comment != nil {
		to = spec.Comment.End()
	}
	tf := pass.Fset.File(from)
	first, last := tf.Line(from), tf.Line(to)
	for _, s := range gd.Specs {
		if s != ast.Spec(spec) && (tf.Line(s.End()) == first || tf.Line(s.Pos()) == last) {
			return analysis.TextEdit{Pos: from, End: to} // shares a line
		}
	}
	if tf.Line(gd.Lparen) == first || tf.Line(gd.Rparen) == last || last >= tf.LineCount() {
		return analysis.TextEdit{Pos: from, End: to}
	}
	return analysis.TextEdit{Pos: tf.LineStart(first), End: tf.LineStart(last + 1)}
}
