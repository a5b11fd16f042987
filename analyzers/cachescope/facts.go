package cachescope

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
)

// CacheFact, on a package of the analysed modules, is what the package
// and the packages it reaches (summary.Visible) do with a manager's
// cache: the package that builds the manager (often main) reads it from
// the packages of its reconcilers, whose reads and watches it does not
// see otherwise.
type CacheFact struct {
	// Reads are the Get and List calls of costly kinds through a client
	// loaded from a struct field, or from a manager's GetClient().
	Reads []Read
	// Watched are the object keys the packages' watches keep typed
	// informers of (For, Owns, Watches, source.Kind, GetInformer,
	// IndexField).
	Watched []string
	// ManagerFields are the field keys ("pkg.Type.Field") the packages
	// set from a manager's GetClient().
	ManagerFields []string
	// UnknownWatch: a watch whose kind is not known here, which may be
	// of any kind.
	UnknownWatch bool
	// Filtered are the watches of costly kinds whose predicates select
	// objects by labels, name or namespace.
	Filtered []Filtered
	// Unfiltered are the object keys of the costly kinds some watch
	// keeps with no such predicate (the controller wants all of them).
	Unfiltered []string
}

// A Filtered is a watch of a costly kind whose predicates select objects
// by what a cache restriction could select them by.
type Filtered struct {
	Kind string  // the object key
	By   selects // what the predicates select by
	At   string  // file:line (summary.Where)
	Pkg  string  // the path of the package that watches
}

// A Read is one cached read of a costly kind.
type Read struct {
	Kind   string // the object key: k8s.io/api/core/v1.Secret
	Method string // Get or List
	At     string // file:line (summary.Where)
	Pkg    string // the path of the package that reads
	// Sources are the field keys the client is loaded from, "" for a
	// manager's GetClient().
	Sources []string
}

// AFact implements analysis.Fact.
func (*CacheFact) AFact() {}

func (f *CacheFact) String() string {
	var reads []string
	for _, r := range f.Reads {
		reads = append(reads, fmt.Sprintf("%s %s at %s via %v", r.Method, r.Kind, r.At, r.Sources))
	}
	var filtered []string
	for _, w := range f.Filtered {
		filtered = append(filtered, fmt.Sprintf("%s by %s at %s", w.Kind, w.By, w.At))
	}
	return fmt.Sprintf("cachescope(reads [%s]; watched %v; manager fields %v; unknown %v; filtered [%s]; unfiltered %v)",
		strings.Join(reads, "; "), f.Watched, f.ManagerFields, f.UnknownWatch, strings.Join(filtered, "; "), f.Unfiltered)
}

// imported merges the facts of the packages the package reaches.
func (p *pkg) imported() *CacheFact {
	out := &CacheFact{}
	for _, pf := range p.pass.AllPackageFacts() {
		if pf.Package == p.pass.Pkg || !summary.VisiblePackage(p.pass, pf.Package) {
			continue // facts are read only about the packages the code reaches (package summary)
		}
		if f, ok := pf.Fact.(*CacheFact); ok {
			out.merge(f)
		}
	}
	out.compact()
	return out
}

func (f *CacheFact) merge(g *CacheFact) {
	f.Reads = append(f.Reads, g.Reads...)
	f.Watched = append(f.Watched, g.Watched...)
	f.ManagerFields = append(f.ManagerFields, g.ManagerFields...)
	f.UnknownWatch = f.UnknownWatch || g.UnknownWatch
	f.Filtered = append(f.Filtered, g.Filtered...)
	f.Unfiltered = append(f.Unfiltered, g.Unfiltered...)
}

// export exports what the package and the packages it reaches say, when
// there is anything to say.
func (p *pkg) export(imported *CacheFact) {
	f := &CacheFact{UnknownWatch: p.unknownWatch}
	f.merge(imported)
	for _, r := range p.reads {
		f.Reads = append(f.Reads, Read{
			Kind:    kube.ObjectKey(r.object),
			Method:  r.method,
			At:      summary.Where(p.pass.Fset, r.call.Pos()),
			Pkg:     p.pass.Pkg.Path(),
			Sources: slices.Sorted(maps.Keys(r.sources)),
		})
	}
	f.Watched = append(f.Watched, slices.Collect(maps.Keys(p.watched))...)
	f.ManagerFields = append(f.ManagerFields, slices.Collect(maps.Keys(p.managerFields))...)
	for _, w := range p.filtered {
		f.Filtered = append(f.Filtered, Filtered{
			Kind: kube.ObjectKey(w.object),
			By:   w.by,
			At:   summary.Where(p.pass.Fset, w.call.Pos()),
			Pkg:  p.pass.Pkg.Path(),
		})
	}
	f.Unfiltered = append(f.Unfiltered, slices.Collect(maps.Keys(p.unfiltered))...)
	if len(f.Reads) == 0 && len(f.Watched) == 0 && len(f.ManagerFields) == 0 && !f.UnknownWatch {
		return
	}
	f.compact()
	p.pass.ExportPackageFact(f)
}

// compact sorts the fact's lists and drops what the packages it merges
// say twice (a package reached through two others).
func (f *CacheFact) compact() {
	slices.SortFunc(f.Reads, func(a, b Read) int {
		return cmp.Or(cmp.Compare(a.Pkg, b.Pkg), cmp.Compare(a.At, b.At), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Method, b.Method))
	})
	f.Reads = slices.CompactFunc(f.Reads, func(a, b Read) bool {
		return a.Pkg == b.Pkg && a.At == b.At && a.Kind == b.Kind && a.Method == b.Method
	})
	slices.Sort(f.Watched)
	f.Watched = slices.Compact(f.Watched)
	slices.Sort(f.ManagerFields)
	f.ManagerFields = slices.Compact(f.ManagerFields)
	slices.SortFunc(f.Filtered, func(a, b Filtered) int {
		return cmp.Or(cmp.Compare(a.Pkg, b.Pkg), cmp.Compare(a.At, b.At), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.By, b.By))
	})
	f.Filtered = slices.Compact(f.Filtered)
	slices.Sort(f.Unfiltered)
	f.Unfiltered = slices.Compact(f.Unfiltered)
}
