package load

import (
	"bufio"
	"bytes"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"os"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// Deps decodes dependencies from the go command's export data,
// each package once per run, keyed by package ID so that a test
// variant's recompiled dependencies ("q [p.test]") stay distinct from
// the ordinary ones.
type Deps struct {
	fset *token.FileSet
	// mu serialises decoding: reading one package's export data may add
	// objects to any package it mentions.
	mu   sync.Mutex
	pkgs map[string]*exported
	// shared is the view of the graph by path, without the paths that
	// name more than one package; variants holds the IDs of packages
	// that depend on (or are) one of those.
	shared   map[string]*types.Package
	variants map[string]bool
	// source are the IDs of the roots whose types their own type-check
	// provides (Provide): they have no export data to decode.
	source map[string]bool
	// exports keeps the export data of the source packages nobody edits
	// (exports.go), nil when the listing keeps none.
	exports *exports
}

type exported struct {
	types    *types.Package
	complete bool
	err      error
}

// NewDeps prepares to decode the dependencies of roots, packages of
// listed, into fset. The packages of listed.Source are not decoded but
// provided.
func NewDeps(fset *token.FileSet, roots []*packages.Package, listed *Listing) *Deps {
	e := &Deps{fset: fset, pkgs: make(map[string]*exported), shared: make(map[string]*types.Package), variants: make(map[string]bool), source: listed.Source, exports: listed.exports}
	// Building a view of each package's dependencies was a measurable part
	// of decoding. One view of the whole graph serves every package
	// whose dependencies include no path that names two packages (a
	// test's recompiled variants).
	byPath := make(map[string]string)
	ambiguous := make(map[string]bool)
	packages.Visit(roots, nil, func(p *packages.Package) {
		if id, ok := byPath[p.PkgPath]; ok && id != p.ID {
			ambiguous[p.PkgPath] = true
		}
		byPath[p.PkgPath] = p.ID
	})
	packages.Visit(roots, nil, func(p *packages.Package) {
		if ambiguous[p.PkgPath] {
			e.variants[p.ID] = true
		} else {
			e.shared[p.PkgPath] = e.entry(p).types
		}
		for _, imp := range p.Imports { // visited before p
			if e.variants[imp.ID] {
				e.variants[p.ID] = true
			}
		}
	})
	return e
}

// entry returns p's package, created empty if it was never mentioned, so
// that every export data file decoded refers to the same *types.Package
// for it. Called with mu held.
func (e *Deps) entry(p *packages.Package) *exported {
	x := e.pkgs[p.ID]
	if x == nil {
		x = &exported{}
		if p.PkgPath == "unsafe" {
			x.types, x.complete = types.Unsafe, true
		} else {
			x.types = types.NewPackage(p.PkgPath, p.Name)
		}
		e.pkgs[p.ID] = x
	}
	return x
}

// FileSet is the file set of the decoded packages, which the roots'
// files must be parsed into.
func (e *Deps) FileSet() *token.FileSet { return e.fset }

// decoded returns, by import path, the packages of imports already
// decoded, taking the lock once instead of once per import.
func (e *Deps) decoded(imports map[string]*packages.Package) map[string]*types.Package {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]*types.Package, len(imports))
	for path, p := range imports {
		if x := e.pkgs[p.ID]; x != nil && x.complete {
			out[path] = x.types
		}
	}
	return out
}

// Decode returns p's types, decoding its export data the first time.
func (e *Deps) Decode(p *packages.Package) (*types.Package, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	x := e.entry(p)
	if x.err != nil {
		// No package: the type checker then makes a fake one, named
		// after the path, and stays quiet about its uses.
		return nil, x.err
	}
	if x.complete {
		return x.types, nil
	}
	if e.source[p.ID] {
		// Not type-checked yet: the importer was scheduled before it,
		// which the driver's units do not do. Not recorded, so that
		// Provide still can.
		return nil, fmt.Errorf("%s is not type-checked yet", p.ID)
	}
	x.err = e.decode(p, x)
	if x.err != nil {
		return nil, x.err
	}
	x.complete = true
	return x.types, nil
}

// IsSource reports whether p's types are provided by its own
// type-check rather than decoded.
func (e *Deps) IsSource(p *packages.Package) bool { return e.source[p.ID] }

// Provide sets the types of p, a source package, from its type-check:
// t, or, when it failed, err, which its importers' imports of it fail
// with. Called once, before any importer of p is type-checked. t's
// export data is kept for later runs when p is a package nobody edits
// (exports.go).
func (e *Deps) Provide(p *packages.Package, t *types.Package, err error) {
	e.mu.Lock()
	x := e.entry(p)
	if err != nil {
		x.err = err
		e.mu.Unlock()
		return
	}
	x.types, x.complete = t, true
	e.mu.Unlock()
	e.exports.put(p, e.fset, t)
}

// Failed reports whether p, a source package, was provided as failed.
func (e *Deps) Failed(p *packages.Package) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x := e.pkgs[p.ID]
	return e.source[p.ID] && x != nil && x.err != nil
}

func (e *Deps) decode(p *packages.Package, x *exported) error {
	if p.ExportFile == "" {
		return fmt.Errorf("no export data for %s", p.ID)
	}
	// The decoder knows packages by path only. Its view is p's
	// dependency graph, in which a path names one package (one variant),
	// or the shared view when p's dependencies have one variant each.
	if !e.variants[p.ID] {
		return readExport(e.fset, e.shared, p)
	}
	view := make(map[string]*types.Package)
	seen := make(map[string]bool)
	var visit func(imports map[string]*packages.Package)
	visit = func(imports map[string]*packages.Package) {
		for _, q := range imports {
			if !seen[q.ID] {
				seen[q.ID] = true
				view[q.PkgPath] = e.entry(q).types
				visit(q.Imports)
			}
		}
	}
	visit(p.Imports)
	view[p.PkgPath] = x.types
	return readExport(e.fset, view, p)
}

// readExport decodes p's export data into the package of view with p's
// path, adding the objects it lacks, and into the packages of view it
// mentions.
func readExport(fset *token.FileSet, view map[string]*types.Package, p *packages.Package) error {
	f, err := os.Open(p.ExportFile)
	if err != nil {
		return err
	}
	defer f.Close()
	// The go command's files hold compiled code too: read only as far as
	// the export data. Ours (exports.go) are export data alone.
	br := bufio.NewReader(f)
	var r io.Reader
	if head, _ := br.Peek(len(exportMagic) + 1); isEntry(head) {
		data, err := io.ReadAll(br)
		if err != nil {
			return err
		}
		payload, err := OpenEntry(data, exportMagic, EntryName(p.ExportFile))
		if err != nil {
			return fmt.Errorf("reading %s: %v", p.ExportFile, err)
		}
		r = bytes.NewReader(payload)
	} else if r, err = gcexportdata.NewReader(br); err != nil {
		return fmt.Errorf("reading %s: %v", p.ExportFile, err)
	}
	t, err := gcexportdata.Read(r, fset, view, p.PkgPath)
	if err != nil {
		return fmt.Errorf("reading %s: %v", p.ExportFile, err)
	}
	if t != view[p.PkgPath] {
		return fmt.Errorf("reading %s: decoded a different package", p.ExportFile)
	}
	return nil
}
