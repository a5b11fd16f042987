package cachemutation

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// path returns the syntax enclosing pos, innermost first.
//
// It is asked once per write and per read it describes, so it must not
// cost the size of the file: PathEnclosingInterval on the whole file
// lists the file's every declaration at its first step, which made a
// package with a large generated file (thousands of declarations, a
// write described in each) quadratic. The declaration holding pos is
// found by bisection and the path computed within it, under a file that
// holds only that declaration; the file at the path's end is the real one,
// so the path is the one of the whole file.
func (a *checker) path(pos token.Pos) []ast.Node {
	for _, f := range a.pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			i, found := slices.BinarySearchFunc(f.Decls, pos, func(d ast.Decl, pos token.Pos) int {
				switch {
				case d.End() <= pos:
					return -1
				case pos < d.Pos():
					return 1
				}
				return 0
			})
			if !found {
				p, _ := astutil.PathEnclosingInterval(f, pos, pos)
				return p
			}
			one := &ast.File{Package: f.Package, Name: f.Name, Decls: f.Decls[i : i+1], FileStart: f.FileStart, FileEnd: f.FileEnd}
			p, _ := astutil.PathEnclosingInterval(one, pos, pos)
			if n := len(p); n > 0 && p[n-1] == one {
				p[n-1] = f
			}
			return p
		}
	}
	return nil
}

// callAt is the call expression whose opening parenthesis is at pos (where
// SSA places a call).
func (a *checker) callAt(pos token.Pos) *ast.CallExpr {
	for _, n := range a.path(pos) {
		if call, ok := n.(*ast.CallExpr); ok && call.Lparen == pos {
			return call
		}
	}
	return nil
}

// callText names a call's function as the source spells it:
// "c.podLister.Pods(ns).Get".
func (a *checker) callText(call *ssa.Call) string {
	if ce := a.callAt(call.Pos()); ce != nil {
		return render(ce.Fun)
	}
	if fn := call.Common().StaticCallee(); fn != nil {
		return fn.Name()
	}
	return call.Common().Method.Name()
}

// describe spells a write for the message: "pod.Labels[...] = ...",
// "pod.SetLabels(...)", or a call of a package function with the write it
// makes: "c.relabel(...), which does pod.Labels[...] = ... at sync.go:12".
func (a *checker) describe(s sink) string {
	w := a.writeOf(s)
	if _, ok := a.via[s.instr]; ok {
		return w.what + " at " + w.where()
	}
	return w.what
}

// writeOf is a write and where it happens, following calls of package
// functions to the write they make.
func (a *checker) writeOf(s sink) written {
	if call, ok := s.instr.(ssa.CallInstruction); ok {
		text := "a call"
		if ce := a.callAt(call.Pos()); ce != nil {
			text = render(ce.Fun) + "(...)"
		}
		if w := a.via[s.instr]; w != nil {
			return written{what: text + ", which does " + w.what, pos: w.pos, at: w.at}
		}
		return written{what: text, pos: a.pass.Fset.Position(s.pos)}
	}
	return written{what: a.storeText(s), pos: a.pass.Fset.Position(s.pos)}
}

// storeText spells a store or map update.
func (a *checker) storeText(s sink) string {
	for _, n := range a.path(s.pos) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs := n.Lhs[0]
			for _, l := range n.Lhs {
				if l.Pos() <= s.pos && s.pos <= l.End() {
					lhs = l
				}
			}
			return render(lhs) + " " + n.Tok.String() + " ..."
		case *ast.IncDecStmt:
			return render(n.X) + n.Tok.String()
		case *ast.RangeStmt:
			return "range assigns " + render(n.Key)
		case ast.Stmt:
			return "a write"
		}
	}
	return "a write"
}

// objectName is what the message calls the object: the variable the read
// is assigned to, if any.
func (a *checker) objectName(src *source) string {
	name := "an object"
	if src.callback {
		return name
	}
	if as := a.assignOf(src.call.Pos()); as != nil {
		lhs := as.Lhs[0]
		if src.index < len(as.Lhs) {
			lhs = as.Lhs[src.index]
		}
		if id, ok := lhs.(*ast.Ident); ok && id.Name != "_" {
			name = id.Name
		}
	}
	if src.many && name != "an object" {
		return "an element of " + name
	}
	return name
}

// assignOf is the assignment whose only right-hand side is the call or
// type assertion at pos (its Lparen).
func (a *checker) assignOf(pos token.Pos) *ast.AssignStmt {
	p := a.path(pos)
	for i, n := range p {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			continue
		}
		if len(as.Rhs) != 1 || i == 0 || p[i-1] != as.Rhs[0] {
			return nil
		}
		switch r := ast.Unparen(as.Rhs[0]).(type) {
		case *ast.CallExpr:
			if r.Lparen == pos {
				return as
			}
		case *ast.TypeAssertExpr:
			if r.Lparen == pos {
				return as
			}
		}
		return nil
	}
	return nil
}

// render prints an expression with index expressions and call arguments
// elided: pod.Labels[...], c.podLister.Pods(...).Get — except short
// arguments, which stay: Pods(ns).
func render(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return render(e.X) + "." + e.Sel.Name
	case *ast.IndexExpr:
		return render(e.X) + "[...]"
	case *ast.StarExpr:
		return "*" + render(e.X)
	case *ast.ParenExpr:
		return "(" + render(e.X) + ")"
	case *ast.CallExpr:
		args := "..."
		if len(e.Args) == 0 {
			args = ""
		} else if len(e.Args) == 1 {
			if s := types.ExprString(e.Args[0]); len(s) <= 16 {
				args = s
			}
		}
		return render(e.Fun) + "(" + args + ")"
	}
	return types.ExprString(e)
}
