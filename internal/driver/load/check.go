package load

import (
	"crypto/sha256"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"slices"

	"golang.org/x/tools/go/packages"
)

// A FileHash is the SHA-256 of a file's content.
type FileHash = [sha256.Size]byte

// Root returns a package to parse and type-check root into, a listed
// package, in fset, the dependencies' file set (Deps.FileSet). Nothing is
// shared with root but what listing filled in and nobody changes.
func Root(root *packages.Package, fset *token.FileSet) *packages.Package {
	return &packages.Package{
		ID:              root.ID,
		Name:            root.Name,
		PkgPath:         root.PkgPath,
		Errors:          slices.Clone(root.Errors),
		GoFiles:         root.GoFiles,
		CompiledGoFiles: root.CompiledGoFiles,
		OtherFiles:      root.OtherFiles,
		EmbedFiles:      root.EmbedFiles,
		EmbedPatterns:   root.EmbedPatterns,
		IgnoredFiles:    root.IgnoredFiles,
		ExportFile:      root.ExportFile,
		Imports:         root.Imports,
		Module:          root.Module,
		ForTest:         root.ForTest,
		Fset:            fset,
		TypesSizes:      root.TypesSizes,
	}
}

// Parse parses pkg's files, recording problems in pkg.Errors the
// way go/packages does. It returns the hash of each file's content as
// parsed: the result cache stores findings only under the content they
// were found in, which a file saved during the run no longer has.
//
// A file in overlay is parsed from its content there instead of the disk
// (Options.Overlay).
func Parse(pkg *packages.Package, overlay map[string][]byte) map[string]FileHash {
	parsed := make(map[string]FileHash, len(pkg.CompiledGoFiles))
	for _, name := range pkg.CompiledGoFiles {
		src, ok := overlay[name]
		var err error
		if !ok {
			src, err = os.ReadFile(name)
		}
		if err != nil {
			pkg.Errors = append(pkg.Errors, packages.Error{Pos: name + ":1", Msg: err.Error(), Kind: packages.ParseError})
			continue
		}
		parsed[name] = sha256.Sum256(src)
		// go/packages' mode: analyzers may rely on its object resolution.
		f, err := parser.ParseFile(pkg.Fset, name, src, parser.AllErrors|parser.ParseComments)
		if f != nil {
			pkg.Syntax = append(pkg.Syntax, f)
		}
		if list, ok := err.(scanner.ErrorList); ok {
			for _, e := range list {
				pkg.Errors = append(pkg.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		} else if err != nil {
			pkg.Errors = append(pkg.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.ParseError})
		}
	}
	return parsed
}

// Check type-checks pkg's parsed files against the dependencies'
// export data, recording problems in pkg.Errors the way go/packages does.
// It reports whether some import could not be provided: such a root is
// not analysed, as go/packages marks it IllTyped, even when the type
// checker had nothing to say.
func Check(pkg *packages.Package, deps *Deps) (importFailed bool) {
	return check(pkg, deps, false)
}

// check is Check, lean when pkg is only type-checked for its importers'
// sake (typeCheck).
func check(pkg *packages.Package, deps *Deps, lean bool) (importFailed bool) {
	imported := deps.decoded(pkg.Imports)
	typeCheck(pkg, lean, func(path string) (*types.Package, error) {
		if t := imported[path]; t != nil {
			return t, nil
		}
		dep := pkg.Imports[path]
		if dep == nil {
			// go/packages leaves out an import that closes a
			// cycle (the Listing reports the cycle) or that the
			// go command could not resolve.
			importFailed = true
			return nil, fmt.Errorf("no metadata for %s", path)
		}
		t, err := deps.Decode(dep)
		if err != nil {
			importFailed = true
		}
		return t, err
	})
	return importFailed
}

// typeCheck type-checks pkg's parsed files as go/packages does a root,
// importing through imp, and records problems in pkg.Errors. lean leaves
// out the function bodies and types.Info: what a dependency's importers
// see of it is its declarations (its export data holds nothing else),
// and checking bodies was two thirds of type-checking the fixture
// module's dependencies from source.
func typeCheck(pkg *packages.Package, lean bool, imp func(path string) (*types.Package, error)) {
	pkg.Types = types.NewPackage(pkg.PkgPath, pkg.Name)
	pkg.TypesInfo = nil
	if !lean {
		pkg.TypesInfo = newInfo()
	}
	tc := &types.Config{
		IgnoreFuncBodies: lean,
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			return imp(path)
		}),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				pkg.TypeErrors = append(pkg.TypeErrors, te)
				pkg.Errors = append(pkg.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
				return
			}
			pkg.Errors = append(pkg.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
		},
		Sizes: pkg.TypesSizes,
	}
	if pkg.Module != nil && pkg.Module.GoVersion != "" {
		tc.GoVersion = "go" + pkg.Module.GoVersion
	}
	err := types.NewChecker(tc, pkg.Fset, pkg.Types, pkg.TypesInfo).Files(pkg.Syntax)
	if err != nil && len(pkg.Errors) == 0 {
		// Checker.Files can fail without calling Error (a too new Go
		// version); the package must still count as broken.
		pkg.Errors = append(pkg.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
	}
}

// newInfo is every types.Info map go/packages fills for a root.
func newInfo() *types.Info {
	return &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
}

// CheckListed type-checks pkg, parsed from root (a root of a Listing,
// Root then Parse), against deps, and provides its types, or its failure,
// to the importers of a source root. ok is false when pkg has errors
// (those of imports without export data dropped, DropFailedImports);
// byImport then says that its only problem is a source root it imports
// that failed, which reports it.
//
// dep says that nothing but its importers reads pkg (a dependency without
// export data): one of the module cache or GOROOT, whose code the go
// command has built elsewhere, is checked lean (typeCheck), without its
// function bodies and types.Info; one of the workspace is checked whole,
// so that its errors are reported as its build would report them.
func CheckListed(root, pkg *packages.Package, deps *Deps, dep bool) (ok, byImport bool) {
	failed := check(pkg, deps, dep && deps.exports.immutable(root))
	if len(pkg.Errors) > 0 || failed {
		if deps.IsSource(root) {
			deps.Provide(root, nil, fmt.Errorf("%s has errors", root.ID))
		}
		pkg.Errors = DropFailedImports(pkg)
		pkg.IllTyped = true
		return false, len(pkg.Errors) == 0 && importsFailedSource(pkg, deps)
	}
	if deps.IsSource(root) {
		deps.Provide(root, pkg.Types, nil)
	}
	return true, false
}

// importsFailedSource reports whether pkg imports a source root that
// failed to type-check.
func importsFailedSource(pkg *packages.Package, deps *Deps) bool {
	for _, imp := range pkg.Imports {
		if deps.Failed(imp) {
			return true
		}
	}
	return false
}

// DropFailedImports removes the type checker's "could not import P"
// when P has no export data: P did not build, and that is reported
// from P itself (or the dependency that broke it, see explainGraph),
// as Load reports it, where go/packages type-checks P from source.
func DropFailedImports(pkg *packages.Package) []packages.Error {
	var out []packages.Error
	for _, e := range pkg.Errors {
		if e.Kind == packages.TypeError {
			if m := couldNotImport.FindStringSubmatch(e.Msg); m != nil {
				if dep := pkg.Imports[m[1]]; dep != nil && dep.ExportFile == "" {
					continue
				}
			}
		}
		out = append(out, e)
	}
	return out
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
