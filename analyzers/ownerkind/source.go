package ownerkind

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// sources reads the declarations of API packages the analysed package
// imports: a dependency is known only from export data, which keeps no
// variable's initializer and no init function, so the file its position
// names is parsed (syntax only, into a file set of its own). A file the
// pass parsed is taken from the pass. Files are kept for the life of the
// pass only.
type sources struct {
	pass   *analysis.Pass
	files  map[string]*ast.File         // by file name; nil when unreadable
	consts map[string]map[string]string // by directory: its string constants
}

func newSources(pass *analysis.Pass) *sources {
	return &sources{pass: pass, files: map[string]*ast.File{}, consts: map[string]map[string]string{}}
}

// fileOf returns the syntax of the file declaring obj, and whether it is
// one of the pass's own (type-checked) files.
func (s *sources) fileOf(obj types.Object) (*ast.File, bool) {
	if !obj.Pos().IsValid() {
		return nil, false
	}
	tf := s.pass.Fset.File(obj.Pos())
	if tf == nil {
		return nil, false
	}
	for _, f := range s.pass.Files {
		if s.pass.Fset.File(f.Pos()) == tf {
			return f, true
		}
	}
	name := tf.PositionFor(obj.Pos(), false).Filename
	if f, ok := s.files[name]; ok {
		return f, false
	}
	var data []byte
	var err error
	if s.pass.ReadFile != nil {
		data, err = s.pass.ReadFile(name)
	}
	if s.pass.ReadFile == nil || err != nil {
		// go vet and the checker let a pass read only its package's
		// files; a dependency's file is read as the go command compiled it.
		data, err = os.ReadFile(name)
	}
	var f *ast.File
	if err == nil {
		f, _ = parser.ParseFile(token.NewFileSet(), name, data, parser.SkipObjectResolution)
	}
	s.files[name] = f
	return f, false
}

// declared yields the names a file declares with tok (token.VAR or
// token.CONST) together with their values, for the declarations that give
// every name one.
func declared(f *ast.File, tok token.Token) iter.Seq2[*ast.Ident, ast.Expr] {
	return func(yield func(*ast.Ident, ast.Expr) bool) {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != tok {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, id := range vs.Names {
					if !yield(id, vs.Values[i]) {
						return
					}
				}
			}
		}
	}
}

// imports maps a file's import names to paths. An import without a name is
// taken by its last path element, as API packages import
// k8s.io/apimachinery/pkg/runtime/schema.
func imports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := p
		for i := len(p) - 1; i >= 0; i-- {
			if p[i] == '/' {
				name = p[i+1:]
				break
			}
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		m[name] = p
	}
	return m
}

// varInit returns the initializer of a dependency's package-level variable,
// the imports of its file and the file's name, or nil.
func (s *sources) varInit(v *types.Var) (ast.Expr, map[string]string, string) {
	f, own := s.fileOf(v)
	if f == nil || own {
		return nil, nil, ""
	}
	for id, value := range declared(f, token.VAR) {
		if id.Name == v.Name() {
			return value, imports(f), s.pass.Fset.File(v.Pos()).PositionFor(v.Pos(), false).Filename
		}
	}
	return nil, nil, ""
}

// sourceConst finds a string constant of a package a dependency's file
// imports but whose scope export data does not hold (a package no package
// of the build imports directly: cert-manager's v1alpha2 register.go takes
// Group: certmanager.GroupName from its parent package). The package is
// looked for beside the file, by the path from the file's package to the
// imported one, as a module lays out its packages; a constant declared
// there as `const Name = "..."` is its value.
func (s *sources) sourceConst(file, fromPkg, importPath, name string) (string, bool) {
	rel, err := filepath.Rel(filepath.FromSlash(fromPkg), filepath.FromSlash(importPath))
	if err != nil || strings.Count(rel, "..") > strings.Count(fromPkg, "/") {
		return "", false
	}
	dir := filepath.Join(filepath.Dir(file), rel)
	consts, ok := s.consts[dir]
	if !ok {
		consts = dirConsts(dir)
		s.consts[dir] = consts
	}
	v, ok := consts[name]
	return v, ok
}

// dirConsts reads the string constants declared with a literal value in
// the Go files (not tests) of a directory.
func dirConsts(dir string) map[string]string {
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for id, value := range declared(f, token.CONST) {
			if lit, ok := value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if v, err := strconv.Unquote(lit.Value); err == nil {
					out[id.Name] = v
				}
			}
		}
	}
	return out
}

// registrations finds, in a file, the kinds under which API types are
// registered: kubebuilder's SchemeBuilder.Register(&Foo{}, &FooList{}),
// an init's append(objectTypes, &Foo{}) (cluster-api, registered later),
// apimachinery's scheme.AddKnownTypes(SchemeGroupVersion, &Foo{}, ...)
// (the Go type's name is the kind) and AddKnownTypeWithName(gvk, &Foo{})
// (the kind is the GroupVersionKind's, when constant).
func (a *checker) registrations(f *ast.File, own bool, pkg *types.Package) map[string]part {
	out := map[string]part{}
	fc := fileCtx{pkg: pkg}
	if own {
		fc.info = a.pass.TypesInfo
	} else {
		fc.imports = imports(f)
	}
	ev := &evaluator{a: a}
	inInit := false
	ast.Inspect(f, func(n ast.Node) bool {
		if fd, ok := n.(*ast.FuncDecl); ok {
			inInit = fd.Recv == nil && fd.Name.Name == "init"
			return true
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "append" && inInit {
			// cluster-api's init: objectTypes = append(objectTypes, &Cluster{}, &ClusterList{}),
			// registered by its addKnownTypes.
			for _, arg := range call.Args {
				if name := typeLit(arg); name != "" {
					out[name] = known(name)
				}
			}
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		switch sel.Sel.Name {
		case "Register", "AddKnownTypes":
			for _, arg := range call.Args {
				if name := typeLit(arg); name != "" {
					out[name] = known(name)
				}
			}
		case "AddKnownTypeWithName":
			if len(call.Args) == 2 {
				if name := typeLit(call.Args[1]); name != "" {
					gvk := ev.eval(call.Args[0], fc)
					if gvk.kind == vGVK {
						out[name] = gvk.kindName
					} else {
						out[name] = part{}
					}
				}
			}
		}
		return true
	})
	return out
}

// typeLit is T for &T{}.
func typeLit(e ast.Expr) string {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return ""
	}
	lit, ok := u.X.(*ast.CompositeLit)
	if !ok || len(lit.Elts) > 0 {
		return ""
	}
	id, ok := lit.Type.(*ast.Ident)
	if !ok {
		return ""
	}
	return id.Name
}
