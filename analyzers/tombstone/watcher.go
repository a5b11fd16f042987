package tombstone

import (
	"cmp"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
)

// noteDelivery records, in a package whose facts are exported, the
// parameters of the module's interface methods that a delete handler
// passes its object to, tombstone and all (`h.OnDelete(obj)` in a watcher
// package's DeleteFunc). A handler that unwraps the tombstone first passes
// a value no longer tracked, and records nothing.
func (c *checker) noteDelivery(f *flow, instr ssa.Instruction, st state, o origin) {
	if c.delivered == nil || o.root.dropHarmless {
		return // nothing is exported; or a filter whose drops lose nothing
	}
	call, ok := instr.(ssa.CallInstruction)
	if !ok || !call.Common().IsInvoke() {
		return
	}
	common := call.Common()
	iface := declaringInterface(common.Method)
	if iface == nil || !c.inModule(iface.Obj().Pkg()) {
		return // a library's interface (cache.Store.Delete, a queue's Add): not a handler
	}
	for i, arg := range common.Args {
		if f.tracked(arg, st) {
			c.delivered[DeliveredParam{Pkg: iface.Obj().Pkg().Path(), Type: iface.Obj().Name(), Method: common.Method.Name(), Param: i}] = true
		}
	}
}

// declaringInterface is the named interface that declares the interface
// method m (an embedded one's, for a method it brings), or nil.
func declaringInterface(m *types.Func) *types.Named {
	recv := m.Signature().Recv()
	if recv == nil {
		return nil
	}
	n, ok := types.Unalias(recv.Type()).(*types.Named)
	if !ok || !types.IsInterface(n) || n.Obj().Pkg() == nil {
		return nil // an interface literal: no other package can name it
	}
	return n
}

// inModule reports whether pkg belongs to the analysed package's module:
// the package itself, or a path within its module's.
func (c *checker) inModule(pkg *types.Package) bool {
	if pkg == c.pass.Pkg {
		return true
	}
	m := c.pass.Module
	if m == nil || m.Path == "" {
		return false
	}
	return pkg.Path() == m.Path || strings.HasPrefix(pkg.Path(), m.Path+"/")
}

// exportWatcherFact exports the interface methods the package calls with
// deleted objects.
func (c *checker) exportWatcherFact() {
	if len(c.delivered) == 0 {
		return
	}
	c.pass.ExportPackageFact(&WatcherFact{Methods: sortedDelivered(slices.Collect(maps.Keys(c.delivered)))})
}

func sortedDelivered(ds []DeliveredParam) []DeliveredParam {
	slices.SortFunc(ds, func(a, b DeliveredParam) int {
		return cmp.Or(cmp.Compare(a.Pkg, b.Pkg), cmp.Compare(a.Type, b.Type), cmp.Compare(a.Method, b.Method), cmp.Compare(a.Param, b.Param))
	})
	return slices.Compact(ds)
}

// delivery is a DeliveredParam and the name of the package that calls it.
type delivery struct {
	DeliveredParam
	by string
}

// deliveries are the interface-method parameters that receive deleted
// objects: from the WatcherFacts of the packages this one reaches
// (summary.Visible), and from this package's own handlers (when exporting).
func (c *checker) deliveries() []delivery {
	var out []delivery
	for _, pf := range c.pass.AllPackageFacts() {
		if !c.imports || pf.Package == c.pass.Pkg || !summary.VisiblePackage(c.pass, pf.Package) {
			continue // facts are read only about the packages the code reaches (package summary)
		}
		if wf, ok := pf.Fact.(*WatcherFact); ok {
			for _, d := range wf.Methods {
				out = append(out, delivery{d, pf.Package.Name()})
			}
		}
	}
	for _, d := range sortedDelivered(slices.Collect(maps.Keys(c.delivered))) {
		out = append(out, delivery{d, c.pass.Pkg.Name()})
	}
	return out
}

// implementationRoots are the methods of the package's types that
// implement an interface method receiving deleted objects: delete handlers,
// whatever their name.
func (c *checker) implementationRoots(ds []delivery) []root {
	if len(ds) == 0 {
		return nil
	}
	pkgs := visiblePackages(c.pass.Pkg)
	scope := c.pass.Pkg.Scope()
	var roots []root
	for _, d := range ds {
		p := pkgs[d.Pkg]
		if p == nil {
			continue
		}
		tn, ok := p.Scope().Lookup(d.Type).(*types.TypeName)
		if !ok {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for _, name := range scope.Names() {
			impl, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || impl.IsAlias() || types.IsInterface(impl.Type()) {
				continue
			}
			if n, ok := impl.Type().(*types.Named); !ok || n.TypeParams().Len() > 0 {
				continue // generic: which instance implements it is unknown
			}
			for _, t := range []types.Type{impl.Type(), types.NewPointer(impl.Type())} {
				if !types.Implements(t, iface) {
					continue
				}
				obj, _, _ := types.LookupFieldOrMethod(t, true, c.pass.Pkg, d.Method)
				m, ok := obj.(*types.Func)
				if !ok || m.Pkg() != c.pass.Pkg {
					break // promoted from an embedded type of another package
				}
				fn := c.prog.FuncValue(m)
				if fn == nil || fn.Blocks == nil || d.Param+1 >= len(fn.Params) {
					break
				}
				roots = append(roots, root{
					fn: fn, param: d.Param + 1, mode: mayBeTombstone, role: d.Method,
					name: impl.Name() + "." + d.Method,
					from: c.qualifiedName(tn) + "." + d.Method + ", which package " + d.by + " calls with the objects of an informer's delete handler",
				})
				break
			}
		}
	}
	return roots
}

// qualifiedName names a type as the analysed package's code would.
func (c *checker) qualifiedName(tn *types.TypeName) string {
	if tn.Pkg() == c.pass.Pkg {
		return tn.Name()
	}
	return tn.Pkg().Name() + "." + tn.Name()
}

// visiblePackages are pkg and the packages it imports directly, by path:
// the only packages whose WatcherFacts are read (package summary).
func visiblePackages(pkg *types.Package) map[string]*types.Package {
	out := map[string]*types.Package{pkg.Path(): pkg}
	for _, imp := range pkg.Imports() {
		out[imp.Path()] = imp
	}
	return out
}
