package load

import (
	"errors"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// An editor asks for the same package again after every pause in typing,
// and almost every edit leaves what the go command decided about the
// package as it was: the same files, build constraints and imports. Only
// the package's own types change, and nothing outside the roots depends
// on them. So the roots can be parsed and type-checked again over the
// dependencies' types that the last load decoded, as gopls does, instead
// of running the go command, which recompiles the edited package for its
// export data (seconds on kubernetes' controllers).
//
// Recheck answers only for the roots themselves: whether the files and
// the dependencies on disk are still those of the load is the caller's to
// know (Stamps).

// Recheck parses and type-checks the roots Packages loaded (prev, without
// errors, all in one file set) again from their files, overlay first, over
// the types of their dependencies that the load decoded. ok is false when
// only a new load can say what the packages are: a file's package
// clause, imports or build constraints changed, the roots have cgo files,
// or a dependency was compiled against a root (a test's recompiled
// variant). Otherwise it returns what Packages would: the roots that
// type-check, and an *Error for those that do not (the text being typed
// has errors more often than not, and the go command would say no more).
func Recheck(prev []*packages.Package, overlay map[string][]byte, base string) (pkgs []*packages.Package, err error, ok bool) {
	if len(prev) == 0 {
		return nil, nil, false
	}
	isRoot := make(map[string]bool, len(prev))
	for _, p := range prev {
		isRoot[p.ID] = true
	}
	for _, p := range prev {
		if p.IllTyped || len(p.Errors) > 0 || p.Types == nil || p.Fset != prev[0].Fset ||
			len(p.CompiledGoFiles) != len(p.Syntax) || !slices.Equal(p.GoFiles, p.CompiledGoFiles) {
			return nil, nil, false
		}
		for _, imp := range p.Imports {
			if strings.Contains(imp.ID, " [") && !isRoot[imp.ID] {
				return nil, nil, false
			}
		}
	}
	order, ok := rootOrder(prev, isRoot)
	if !ok {
		return nil, nil, false
	}
	checked := make(map[string]*packages.Package, len(prev))
	broken := make(map[string]bool)
	var failed []*packages.Package
	for _, old := range order {
		pkg := Root(old, old.Fset)
		Parse(pkg, overlay)
		if !sameHeaders(old.Fset, old.Syntax, pkg.Syntax) {
			return nil, nil, false
		}
		importsBroken := false
		for _, imp := range pkg.Imports {
			importsBroken = importsBroken || broken[imp.ID]
		}
		if importsBroken {
			// Reported from the root it imports, as Packages does.
			broken[pkg.ID] = true
			continue
		}
		if len(pkg.Errors) > 0 {
			broken[pkg.ID] = true
			failed = append(failed, pkg)
			continue
		}
		decoded := make(map[string]*types.Package)
		for _, t := range old.Types.Imports() {
			decoded[t.Path()] = t
		}
		missing := false
		typeCheck(pkg, false, func(path string) (*types.Package, error) {
			dep := pkg.Imports[path]
			if dep == nil {
				missing = true
				return nil, errNotLoaded // the imports are the load's: not reached
			}
			if r := checked[dep.ID]; r != nil {
				return r.Types, nil
			}
			t := decoded[pathOfID(dep.ID)]
			if t == nil {
				missing = true
				return nil, errNotLoaded
			}
			return t, nil
		})
		if missing {
			return nil, nil, false
		}
		if len(pkg.Errors) > 0 {
			broken[pkg.ID] = true
			failed = append(failed, pkg)
			continue
		}
		checked[pkg.ID] = pkg
	}
	for _, p := range prev {
		if c := checked[p.ID]; c != nil {
			pkgs = append(pkgs, c)
		}
	}
	if f := Failure(failed, base, func([]*packages.Package) []*packages.Package { return nil }); f != nil {
		return pkgs, f, true
	}
	return pkgs, nil, true
}

// errNotLoaded is the importer's answer for a package the load did not
// decode; Recheck then gives up.
var errNotLoaded = errors.New("not among the loaded dependencies")

// pathOfID is the package path of a go/packages ID: "q [p.test]" is a
// variant of q.
func pathOfID(id string) string {
	path, _, _ := strings.Cut(id, " [")
	return path
}

// rootOrder orders roots so that a root comes after the roots it imports
// (a test's external package after the test variant it imports).
func rootOrder(roots []*packages.Package, isRoot map[string]bool) ([]*packages.Package, bool) {
	byID := make(map[string]*packages.Package, len(roots))
	for _, p := range roots {
		byID[p.ID] = p
	}
	var order []*packages.Package
	state := make(map[string]int) // 1: visiting, 2: done
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		switch state[p.ID] {
		case 1:
			return false
		case 2:
			return true
		}
		state[p.ID] = 1
		for _, imp := range p.Imports {
			if isRoot[imp.ID] && !visit(byID[imp.ID]) {
				return false
			}
		}
		state[p.ID] = 2
		order = append(order, p)
		return true
	}
	for _, p := range roots {
		if !visit(p) {
			return nil, false
		}
	}
	return order, true
}

// sameHeaders reports whether each file of now has the package clause,
// imports and build constraints its namesake in before had: what the go
// command read of the files to list the package.
func sameHeaders(fset *token.FileSet, before, now []*ast.File) bool {
	if len(before) != len(now) {
		return false
	}
	headers := make(map[string]string, len(before))
	for _, f := range before {
		headers[fset.File(f.FileStart).Name()] = header(f)
	}
	for _, f := range now {
		h, ok := headers[fset.File(f.FileStart).Name()]
		if !ok || h != header(f) {
			return false
		}
	}
	return true
}

// header is what the go command reads of a file: its name, build
// constraints, package clause and imports.
func header(f *ast.File) string {
	var b strings.Builder
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") || strings.HasPrefix(c.Text, "// +build") {
				b.WriteString(c.Text)
				b.WriteByte('\n')
			}
		}
	}
	b.WriteString("package " + f.Name.Name + "\n")
	for _, imp := range f.Imports {
		if imp.Name != nil {
			b.WriteString(imp.Name.Name + " ")
		}
		b.WriteString(imp.Path.Value + "\n")
	}
	return b.String()
}
