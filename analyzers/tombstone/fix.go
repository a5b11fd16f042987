package tombstone

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// pathAt returns the file containing pos and the AST path to pos, innermost
// first.
func (c *checker) pathAt(pos token.Pos) (*ast.File, []ast.Node) {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, pos, pos)
			return f, path
		}
	}
	return nil, nil
}

// nodeAt is the expression a finding at pos (an SSA instruction position)
// is about, so the diagnostic can span it.
func (c *checker) nodeAt(pos token.Pos) ast.Node {
	_, path := c.pathAt(pos)
	for _, n := range path {
		switch n := n.(type) {
		case *ast.TypeAssertExpr, *ast.CallExpr, *ast.SelectorExpr, *ast.StarExpr:
			return n
		case *ast.TypeSwitchStmt:
			if n.Pos() == pos {
				return n.Assign // the `x := obj.(type)` part
			}
			return nil
		case ast.Stmt:
			return nil // do not widen a finding to a whole statement
		}
	}
	return nil
}

// typeSwitchAt returns the position of the type switch whose case clause
// starts at pos (where SSA places the assertion a case compiles to).
func (c *checker) typeSwitchAt(pos token.Pos) token.Pos {
	_, path := c.pathAt(pos)
	for i, n := range path {
		cc, ok := n.(*ast.CaseClause)
		if !ok || cc.Case != pos || i+2 >= len(path) {
			continue
		}
		if sw, ok := path[i+2].(*ast.TypeSwitchStmt); ok {
			return sw.Pos()
		}
	}
	return token.NoPos
}

// renameFix replaces the function a call names with its deletion-handling
// variant from the same package.
func (c *checker) renameFix(pos token.Pos, replacement string) *analysis.SuggestedFix {
	_, path := c.pathAt(pos)
	for _, n := range path {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			continue
		}
		var id *ast.Ident
		switch fun := ast.Unparen(call.Fun).(type) {
		case *ast.SelectorExpr:
			id = fun.Sel
		case *ast.Ident:
			id = fun // dot import
		}
		if id == nil {
			return nil
		}
		return &analysis.SuggestedFix{
			Message:   "Use " + replacement,
			TextEdits: []analysis.TextEdit{{Pos: id.Pos(), End: id.End(), NewText: []byte(replacement)}},
		}
	}
	return nil
}

// unwrapFix inserts, before the statement holding the assertion (or type
// switch) at pos, the block that replaces a tombstone by the object it
// carries:
//
//	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
//		obj = tombstone.Obj
//	}
//
// It is offered only when obj is a local variable or parameter of an empty
// interface type, so the assignment compiles and changes nothing else.
func (c *checker) unwrapFix(pos token.Pos) *analysis.SuggestedFix {
	file, path := c.pathAt(pos)
	var x *ast.Ident
	for _, n := range path {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			x, _ = ast.Unparen(n.X).(*ast.Ident)
		case *ast.TypeSwitchStmt:
			if n.Pos() == pos {
				x = typeSwitchSubject(n)
			}
		}
		if x != nil {
			break
		}
	}
	if x == nil {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[x].(*types.Var)
	if !ok || v.Parent() == c.pass.Pkg.Scope() || !admitsTombstone(v.Type()) {
		return nil // not a local empty interface we can reassign
	}
	stmt := enclosingListStmt(path)
	if stmt == nil {
		return nil
	}
	qual, importEdit, ok := c.cacheQualifier(file, stmt.Pos())
	if !ok {
		return nil
	}
	tomb, okName := "tombstone", "ok"
	if x.Name == tomb || x.Name == okName {
		tomb, okName = "tomb", "isTomb"
	}
	indent := edit.Indent(c.pass, stmt.Pos())
	text := fmt.Sprintf("if %s, %s := %s.(%s.DeletedFinalStateUnknown); %s {\n%s\t%s = %s.Obj\n%s}",
		tomb, okName, x.Name, qual, okName, indent, x.Name, tomb, indent)
	edits := []analysis.TextEdit{edit.InsertBefore(c.pass, stmt.Pos(), text)}
	if importEdit != nil {
		edits = append(edits, *importEdit)
	}
	return &analysis.SuggestedFix{Message: "Unwrap the tombstone before the assertion", TextEdits: edits}
}

func typeSwitchSubject(sw *ast.TypeSwitchStmt) *ast.Ident {
	var e ast.Expr
	switch a := sw.Assign.(type) {
	case *ast.AssignStmt:
		if len(a.Rhs) == 1 {
			e = a.Rhs[0]
		}
	case *ast.ExprStmt:
		e = a.X
	}
	if ta, ok := e.(*ast.TypeAssertExpr); ok {
		id, _ := ast.Unparen(ta.X).(*ast.Ident)
		return id
	}
	return nil
}

// enclosingListStmt is the innermost statement on path that sits directly in
// a statement list, where a new statement can be inserted before it.
func enclosingListStmt(path []ast.Node) ast.Stmt {
	for i, n := range path {
		s, ok := n.(ast.Stmt)
		if !ok || i+1 >= len(path) {
			continue
		}
		switch path[i+1].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return s
		}
	}
	return nil
}

// cacheQualifier is the name under which the file can refer to client-go's
// cache package at pos, adding the import when the file lacks it.
func (c *checker) cacheQualifier(file *ast.File, pos token.Pos) (string, *analysis.TextEdit, bool) {
	scope := c.pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return "", nil, false
	}
	for _, imp := range file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path != kube.CachePkg {
			continue
		}
		name := "cache"
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "_" || name == "." {
			return "", nil, false
		}
		if _, obj := scope.LookupParent(name, pos); obj != nil {
			if pn, ok := obj.(*types.PkgName); ok && pn.Imported().Path() == kube.CachePkg {
				return name, nil, true
			}
		}
		return "", nil, false // shadowed
	}
	for _, name := range []string{"cache", "toolscache"} {
		if _, obj := scope.LookupParent(name, pos); obj != nil {
			continue
		}
		if fileDeclares(file, name) {
			continue
		}
		spec := strconv.Quote(kube.CachePkg)
		if name != "cache" {
			spec = name + " " + spec
		}
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if ok && gd.Tok == token.IMPORT && gd.Lparen.IsValid() {
				return name, &analysis.TextEdit{Pos: gd.Lparen + 1, End: gd.Lparen + 1, NewText: []byte("\n\t" + spec)}, true
			}
		}
		end := file.Name.End()
		return name, &analysis.TextEdit{Pos: end, End: end, NewText: []byte("\n\nimport " + spec)}, true
	}
	return "", nil, false
}

// fileDeclares reports whether an import of the file already uses name.
func fileDeclares(file *ast.File, name string) bool {
	for _, imp := range file.Imports {
		if imp.Name != nil && imp.Name.Name == name {
			return true
		}
		path, _ := strconv.Unquote(imp.Path.Value)
		if imp.Name == nil && (path == name || bytes.HasSuffix([]byte(path), []byte("/"+name))) {
			return true
		}
	}
	return false
}
