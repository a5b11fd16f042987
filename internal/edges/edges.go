// Package edges says which imported packages a package's code calls by
// name, or holds values of: the packages whose facts its analysis may
// read, and so the packages ctrllint's driver analyses for their facts
// before it.
//
// One walk of the syntax serves both sides, and the two must agree: the
// driver plans its units from the syntax alone, before anything is
// type-checked, resolving a selector's package by the file's import names
// (Syntactic); an analysis resolves it through the type checker
// (Resolved). Every name the type checker resolves to an import is one the
// file's imports name, so what an analysis reads is a subset of what the
// driver analysed, in every run: a package's findings then depend only on
// its own code and on the packages it names this way, each summarised the
// same way in turn.
package edges

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// A Resolver gives the import path of a package identifier used as the
// left side of a selector in file, or "".
type Resolver func(file *ast.File, id *ast.Ident) string

// Named returns the import paths whose exported names files call —
// q.F(...), q.F[T](...), and conversions q.T(x), which the syntax cannot
// tell from calls — and, apart, those whose names they use as the type of
// a struct field, a parameter, a result, a variable or a composite literal
// (h *q.Helper, &q.Queue{}): values whose methods the code may call
// without calling any function of their package.
func Named(files []*ast.File, resolve Resolver) (called, held map[string]bool) {
	called, held = make(map[string]bool), make(map[string]bool)
	for _, f := range files {
		add := func(set map[string]bool, e ast.Expr) {
			if p := selected(f, e, resolve); p != "" {
				set[p] = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				add(called, x.Fun)
			case *ast.CompositeLit:
				add(held, x.Type)
			case *ast.Field:
				add(held, x.Type)
			case *ast.ValueSpec:
				add(held, x.Type)
			}
			return true
		})
	}
	return called, held
}

// selected resolves q in q.X, looking through pointers, parentheses and
// generic instantiations.
func selected(f *ast.File, e ast.Expr, resolve Resolver) string {
	for e != nil {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				return resolve(f, id)
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

// Resolved resolves through the type checker's uses.
func Resolved(info *types.Info) Resolver {
	return func(_ *ast.File, id *ast.Ident) string {
		if pn, ok := info.Uses[id].(*types.PkgName); ok {
			return pn.Imported().Path()
		}
		return ""
	}
}

// Syntactic resolves by the file's imports: an import's explicit name, or
// the package name nameOf gives for its path (the last element of the
// path when nameOf says nothing). A local identifier that shadows an
// import resolves to it too, which only adds a package.
func Syntactic(nameOf func(path string) string) Resolver {
	byFile := make(map[*ast.File]map[string]string)
	return func(f *ast.File, id *ast.Ident) string {
		names, ok := byFile[f]
		if !ok {
			names = make(map[string]string)
			for _, is := range f.Imports {
				path, err := strconv.Unquote(is.Path.Value)
				if err != nil {
					continue
				}
				name := nameOf(path)
				if name == "" {
					name = path[strings.LastIndex(path, "/")+1:]
				}
				if is.Name != nil {
					name = is.Name.Name
				}
				if name != "_" && name != "." {
					names[name] = path
				}
			}
			byFile[f] = names
		}
		return names[id.Name]
	}
}

// ClientPrefixes are the import paths of the libraries whose values a
// controller keeps in its fields and calls methods of: client-go (queues,
// caches, clients) and controller-runtime. A package of the module that
// uses them and whose values a package holds (a queue wrapper in a
// controller's field) is reached as if called.
var ClientPrefixes = []string{"k8s.io/client-go/", "sigs.k8s.io/controller-runtime/"}

// Reach is the packages whose facts a package reads: those it calls, and
// those it holds values of that use one of ClientPrefixes (usesClients
// says, by import path). Holding values of any package would reach a
// monorepo's types through fields and parameters all the way down, for
// helpers mostly called through interfaces, which no summary follows
// (docs/performance.md has the measurement).
func Reach(called, held map[string]bool, usesClients func(path string) bool) map[string]bool {
	out := make(map[string]bool, len(called))
	for p := range called {
		out[p] = true
	}
	for p := range held {
		if !out[p] && usesClients(p) {
			out[p] = true
		}
	}
	return out
}

// UsesClients reports whether one of imports is under ClientPrefixes.
func UsesClients(imports []string) bool {
	for _, path := range imports {
		for _, pre := range ClientPrefixes {
			if strings.HasPrefix(path, pre) {
				return true
			}
		}
	}
	return false
}
