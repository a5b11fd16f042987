package cachemutation

import (
	"fmt"
	"go/types"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	summaries "github.com/ctrllint/ctrllint/analyzers/internal/summary"
)

// The summaries of a package's functions reach the packages that import
// it as analysis facts (analyzers/internal/summary): which results of a
// function return objects owned by a cache (returnsFact), and what it
// does with a parameter that holds cached references (paramsFact). An
// importer's call is then a cache read, or a write, exactly as a call of
// a function of its own package is. A callee without a fact is unknown
// code, as before: a missing fact can cost a finding, never make one.

// returnsFact marks a function, method or interface method whose results
// return objects that an informer cache owns.
type returnsFact struct {
	Results []cachedResult
}

// cachedResult is one result of a function that returns cached objects.
type cachedResult struct {
	Index int
	Bits  uint8  // the result's taint bits (shared, holds)
	Many  bool   // a fresh slice of cached objects (a List result)
	Read  string // the cache read, as the function spells it: "c.podLister.Pods(ns).Get"
}

func (*returnsFact) AFact() {}

func (f *returnsFact) String() string {
	var parts []string
	for _, r := range f.Results {
		parts = append(parts, fmt.Sprintf("%d:%s", r.Index, r.Read))
	}
	return "returnsCached(" + strings.Join(parts, ", ") + ")"
}

// paramsFact marks a function or method that writes through a parameter
// holding cached references, or returns them.
type paramsFact struct {
	Params []paramEffect
}

// paramEffect is what a function does with parameter Param (a method's
// receiver is parameter 0, as in SSA) when it holds cached references as
// Bits says.
type paramEffect struct {
	Param   int
	Bits    uint8
	Write   string // the first write through it, "" for none: "pod.Labels[...] = ..."
	At      string // where that write is: "podutil/pods.go:12"
	Results []resultBits
}

// resultBits are the cached references a result returns.
type resultBits struct {
	Index int
	Bits  uint8
}

func (*paramsFact) AFact() {}

func (f *paramsFact) String() string {
	var parts []string
	for _, p := range f.Params {
		s := fmt.Sprintf("%d/%d:", p.Param, p.Bits)
		if p.Write != "" {
			s += " writes " + p.Write + " at " + p.At
		}
		for _, r := range p.Results {
			s += fmt.Sprintf(" returns in %d/%d", r.Index, r.Bits)
		}
		parts = append(parts, s)
	}
	return "params(" + strings.Join(parts, "; ") + ")"
}

// calleeFacts are the facts of one function of another package, decoded
// once per pass.
type calleeFacts struct {
	returns *returnsFact
	params  *paramsFact
}

// factsOf imports the facts of fn, a function, method or interface
// method of another package (nil fields for none).
func (a *checker) factsOf(fn *types.Func) *calleeFacts {
	fn = fn.Origin()
	if c, ok := a.imported[fn]; ok {
		return c
	}
	c := new(calleeFacts)
	if !summaries.Visible(a.pass, fn) {
		a.imported[fn] = c
		return c
	}
	if r := new(returnsFact); a.pass.ImportObjectFact(fn, r) {
		c.returns = r
	}
	if p := new(paramsFact); a.pass.ImportObjectFact(fn, p) {
		c.params = p
	}
	a.imported[fn] = c
	return c
}

// summarised applies what is known of a callee beyond the package's own
// functions (local): the facts of a function or method of another package
// of the module, and, for a call through an interface of the package, what
// its implementations there return.
func (f *unit) summarised(call ssa.CallInstruction, callee *types.Func) bool {
	if callee == nil || callee.Pkg() == nil {
		return false
	}
	common := call.Common()
	var c *calleeFacts
	switch {
	case callee.Pkg() != f.a.pass.Pkg:
		c = f.a.factsOf(callee)
	case common.IsInvoke():
		c = &calleeFacts{returns: f.a.interfaceResults(callee)}
	default:
		return false // a function of the package: local
	}
	changed := false
	v := call.Value()
	if r := c.returns; r != nil && v != nil && f.sources {
		for _, res := range r.Results {
			src := f.source(v, res.Index, func() *source {
				return &source{call: v, desc: f.a.callText(v) + " (" + res.Read + ")", many: res.Many, index: res.Index, param: -1}
			})
			changed = f.setResult(v, res.Index, taint{b: bits(res.Bits), src: src}) || changed
		}
	}
	if p := c.params; p != nil && !common.IsInvoke() {
		offset := 0
		if sc := common.StaticCallee(); sc != nil && len(sc.FreeVars) > 0 {
			offset = 1 // a bound method value: its receiver is no argument
		}
		for i, arg := range common.Args {
			t := f.taintOf(arg)
			if t.b == 0 {
				continue
			}
			for _, e := range p.Params {
				if e.Param != i+offset || bits(e.Bits)&t.b == 0 {
					continue
				}
				if e.Write != "" {
					changed = f.addSink(call, call.Pos(), t.src) || changed
					if f.a.via[call] == nil {
						f.a.via[call] = &written{what: e.Write, at: e.At}
					}
				}
				for _, r := range e.Results {
					if v != nil {
						changed = f.setResult(v, r.Index, taint{b: bits(r.Bits), src: t.src}) || changed
					}
				}
			}
		}
	}
	return changed
}

// interfaceResults is what a method of an interface the package declares
// returns, as far as the package shows: the results from which every
// implementation the package declares (at least one) returns cached
// objects. Implementations elsewhere are not guessed at.
func (a *checker) interfaceResults(m *types.Func) *returnsFact {
	if r, ok := a.ifaces[m]; ok {
		return r
	}
	a.ifaces[m] = nil // recursion: an implementation that calls the interface
	r := a.computeInterfaceResults(m)
	a.ifaces[m] = r
	return r
}

func (a *checker) computeInterfaceResults(m *types.Func) *returnsFact {
	sig := m.Type().(*types.Signature)
	recv := sig.Recv()
	if recv == nil {
		return nil
	}
	iface, ok := recv.Type().Underlying().(*types.Interface)
	if !ok || iface.Empty() {
		return nil
	}
	n := sig.Results().Len()
	all := make([]bits, n)     // the bits every implementation returns, per result
	reads := make([]string, n) // the first implementation's read
	many := make([]bool, n)
	impls := 0
	for _, named := range a.candidates(iface) {
		var impl types.Type
		switch {
		case types.Implements(named, iface):
			impl = named
		case types.Implements(types.NewPointer(named), iface):
			impl = types.NewPointer(named)
		default:
			continue
		}
		sel := types.NewMethodSet(impl).Lookup(m.Pkg(), m.Name())
		if sel == nil {
			continue
		}
		fn, _ := sel.Obj().(*types.Func)
		got := a.resultsOf(fn)
		impls++
		for j := range n {
			var b bits
			var read string
			var isMany bool
			if got != nil {
				for _, r := range got.Results {
					if r.Index == j {
						b, read, isMany = bits(r.Bits), r.Read, r.Many
					}
				}
			}
			if impls == 1 {
				all[j], reads[j], many[j] = b, read, isMany
			} else {
				all[j] &= b
				many[j] = many[j] && isMany
			}
		}
	}
	if impls == 0 {
		return nil
	}
	r := &returnsFact{}
	for j, b := range all {
		if b != 0 {
			r.Results = append(r.Results, cachedResult{Index: j, Bits: uint8(b), Many: many[j], Read: reads[j]})
		}
	}
	if len(r.Results) == 0 {
		return nil
	}
	return r
}

// concrete are the package's named types that may implement one of its
// interfaces (not aliases, interfaces or generic), in scope order, and for
// each method name and signature the types whose pointer has such a
// method (the method set of *T holds T's).
type concrete struct {
	named    []*types.Named
	byMethod map[string]*typeutil.Map // signature → []int, indexes into named, ascending
}

// candidates are the package's types, in scope order, that have a method
// of every name iface has, with an identical signature: the only ones that
// can implement it, and so the only ones computeInterfaceResults asks
// types.Implements about. Asking it of every type of the package for
// every interface method was quadratic in the size of the package
// (generated listers: an interface and an implementation per kind, all
// with List and Get).
func (a *checker) candidates(iface *types.Interface) []*types.Named {
	if a.concrete == nil {
		c := &concrete{byMethod: make(map[string]*typeutil.Map)}
		hasher := typeutil.MakeHasher()
		scope := a.pass.Pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			ms := types.NewMethodSet(types.NewPointer(named))
			for i := range ms.Len() {
				sel := ms.At(i)
				sigs := c.byMethod[sel.Obj().Name()]
				if sigs == nil {
					sigs = new(typeutil.Map)
					sigs.SetHasher(hasher)
					c.byMethod[sel.Obj().Name()] = sigs
				}
				idxs, _ := sigs.At(sel.Type()).([]int)
				sigs.Set(sel.Type(), append(idxs, len(c.named)))
			}
			c.named = append(c.named, named)
		}
		a.concrete = c
	}
	if iface.NumMethods() == 0 {
		return nil
	}
	// The types having the interface's rarest method name, less those
	// missing another of its names.
	lists := make([][]int, iface.NumMethods())
	for i := range lists {
		m := iface.Method(i)
		if sigs := a.concrete.byMethod[m.Name()]; sigs != nil {
			lists[i], _ = sigs.At(m.Type()).([]int)
		}
	}
	slices.SortStableFunc(lists, func(x, y []int) int { return len(x) - len(y) })
	var out []*types.Named
	for _, idx := range lists[0] {
		ok := true
		for _, l := range lists[1:] {
			if _, found := slices.BinarySearch(l, idx); !found {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, a.concrete.named[idx])
		}
	}
	return out
}

// resultsOf is which results of a concrete method return cached objects:
// from its source summary when the package declares it, from its fact
// when it is promoted from a type of another package.
func (a *checker) resultsOf(fn *types.Func) *returnsFact {
	if fn == nil {
		return nil
	}
	if fn.Pkg() != a.pass.Pkg {
		return a.factsOf(fn).returns
	}
	sfn := a.pkg.Prog.FuncValue(fn)
	if sfn == nil || sfn.Pkg != a.pkg || sfn.Blocks == nil {
		return nil
	}
	return returnsOf(a.sourceSummary(sfn))
}

// returnsOf turns a source summary into a fact, nil when no result
// returns cached objects.
func returnsOf(results []taint) *returnsFact {
	var r returnsFact
	for j, t := range results {
		if t.b != 0 && t.src != nil {
			r.Results = append(r.Results, cachedResult{Index: j, Bits: uint8(t.b), Many: t.src.many, Read: t.src.desc})
		}
	}
	if len(r.Results) == 0 {
		return nil
	}
	return &r
}

// export exports the summaries of the package's exported functions and
// methods, and of the methods of the interfaces it declares, for the
// packages that import it.
func (a *checker) export(funcs []*ssa.Function) {
	for _, fn := range funcs {
		obj, _ := fn.Object().(*types.Func)
		if fn.Parent() != nil || obj == nil || !obj.Exported() || fn.Blocks == nil {
			continue // only what importers can call by name
		}
		a.exportFunc(fn, obj)
	}
	scope := a.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue // implementations of a generic interface are its instances'
		}
		iface, ok := named.Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := range iface.NumExplicitMethods() {
			m := iface.ExplicitMethod(i)
			if r := a.interfaceResults(m); r != nil {
				a.pass.ExportObjectFact(m, r)
			}
		}
	}
}

func (a *checker) exportFunc(fn *ssa.Function, obj *types.Func) {
	if r := returnsOf(a.sourceSummary(fn)); r != nil {
		a.pass.ExportObjectFact(obj, r)
	}
	var p paramsFact
	for i, param := range fn.Params {
		if !mayCarry(param.Type()) {
			continue
		}
		for _, b := range []bits{shared, holds} {
			s := a.paramSummary(fn, i, b)
			if s == nil {
				continue
			}
			e := paramEffect{Param: i, Bits: uint8(b)}
			if s.write != nil {
				e.Write, e.At = s.write.what, a.exportedAt(*s.write)
			}
			for j, r := range s.results {
				if r.b != 0 {
					e.Results = append(e.Results, resultBits{Index: j, Bits: uint8(r.b)})
				}
			}
			if e.Write != "" || len(e.Results) > 0 {
				p.Params = append(p.Params, e)
			}
		}
	}
	if len(p.Params) > 0 {
		a.pass.ExportObjectFact(obj, &p)
	}
}

// exportedAt is where a write is, for a message in another package: the
// package's last path element and the file, "podutil/pods.go:12".
func (a *checker) exportedAt(w written) string {
	if w.at != "" {
		return w.at // in a package further down
	}
	return fmt.Sprintf("%s/%s:%d", path.Base(a.pass.Pkg.Path()), filepath.Base(w.pos.Filename), w.pos.Line)
}

// mayCarry reports whether a parameter of type t can hold a cached object
// or references into one: pointers, slices, maps, interfaces and structs
// that contain them, except contexts and errors.
func mayCarry(t types.Type) bool {
	if kube.Is(t, "context", "Context") || types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Signature, *types.Chan, *types.Basic:
		return false
	}
	return hasRefs(t, 0)
}

// where is how a message places a write made in a called function.
func (w written) where() string {
	if w.at != "" {
		return w.at
	}
	return fmt.Sprintf("%s:%d", filepath.Base(w.pos.Filename), w.pos.Line)
}
