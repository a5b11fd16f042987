package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

// A span is the lines of one function declaration, its closures included.
type span struct{ from, to int }

func (s span) has(line int) bool { return s.from <= line && line <= s.to }

// funcSpan finds function (f, T.m or (*T).m) in a Go file. Receivers match
// with or without the pointer, and without type parameters, so that an
// entry names a method as a reader of the diff would.
func funcSpan(file, function string) (span, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return span{}, err
	}
	decl, lit := function, 0
	if i := strings.LastIndex(function, "$"); i >= 0 {
		decl = function[:i]
		lit, _ = strconv.Atoi(function[i+1:])
	}
	wantRecv, wantName := splitFunction(decl)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != wantName || recvName(fd) != wantRecv {
			continue
		}
		var n ast.Node = fd
		if lit > 0 {
			fl := nthFuncLit(fd, lit)
			if fl == nil {
				return span{}, fmt.Errorf("%s: %s has fewer than %d func literals", file, decl, lit)
			}
			n = fl
		}
		return span{fset.Position(n.Pos()).Line, fset.Position(n.End()).Line}, nil
	}
	return span{}, fmt.Errorf("%s: no function %s", file, function)
}

// nthFuncLit is the nth func literal directly in fd (not inside another
// literal), counting from 1 in source order: go/ssa's fd$n.
func nthFuncLit(fd *ast.FuncDecl, n int) *ast.FuncLit {
	var found *ast.FuncLit
	ast.Inspect(fd.Body, func(x ast.Node) bool {
		lit, ok := x.(*ast.FuncLit)
		if !ok || found != nil {
			return found == nil
		}
		if n--; n == 0 {
			found = lit
		}
		return false // a literal inside it is lit$k, not fd$k
	})
	return found
}

func splitFunction(function string) (recv, name string) {
	i := strings.LastIndex(function, ".")
	if i < 0 {
		return "", function
	}
	recv = strings.Trim(function[:i], "()")
	return strings.TrimPrefix(recv, "*"), function[i+1:]
}

func recvName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
