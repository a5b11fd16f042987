package cachesync

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// owners says who in a package takes care of the caches' sync: a
// controller type that keeps HasSynced checks in its fields, or whose
// methods or constructors wait, check HasSynced or start informers, is
// expected to wait before its workers start. A type that does none of
// these leaves the wait to its caller (kyverno's and external-provisioner's
// mains wait on the factory, then run the controllers), which the analyzer
// cannot see. For functions that are not methods, the package as a whole
// decides.
type owners struct {
	pkg   bool
	types map[*types.TypeName]bool
}

// owns reports whether the function's type (or, for a function, its
// package) is expected to wait for the caches itself.
func (o owners) owns(fn *ssa.Function) bool {
	if t := recvNamed(fn); t != nil {
		return o.types[t]
	}
	return o.pkg
}

func (c *checker) syncOwners() owners {
	o := owners{types: make(map[*types.TypeName]bool)}
	for _, fn := range c.funcs {
		if !c.mentionsSync(fn) {
			continue
		}
		o.pkg = true
		top := root(fn)
		if t := recvNamed(top); t != nil {
			o.types[t] = true
		}
		for _, t := range constructed(top) {
			o.types[t] = true
		}
	}
	scope := c.pkg.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if st, ok := tn.Type().Underlying().(*types.Struct); ok && hasSyncField(st) {
			o.types[tn] = true
		}
	}
	return o
}

// hasSyncField reports whether a struct keeps sync checks: a field of type
// cache.InformerSynced or cache.DoneChecker, or a slice of them.
func hasSyncField(st *types.Struct) bool {
	for i := range st.NumFields() {
		t := st.Field(i).Type()
		if s, ok := t.Underlying().(*types.Slice); ok {
			t = s.Elem()
		}
		if isSyncCheck(t) {
			return true
		}
	}
	return false
}

// constructed returns the package's named types a function returns (or
// pointers to them): the types it constructs.
func constructed(fn *ssa.Function) []*types.TypeName {
	var out []*types.TypeName
	res := fn.Signature.Results()
	for i := range res.Len() {
		if n := kube.Named(res.At(i).Type()); n != nil && n.Obj().Pkg() == fn.Pkg.Pkg {
			out = append(out, n.Obj())
		}
	}
	return out
}

// mentionsSync reports whether fn waits for a cache, refers to an
// informer's HasSynced (a call or a method value), or starts informers.
func (c *checker) mentionsSync(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c.isWait(instr) {
				return true
			}
			var ops []*ssa.Value
			for _, op := range instr.Operands(ops) {
				if op == nil || *op == nil {
					continue
				}
				if m, ok := (*op).(*ssa.MakeClosure); ok {
					if f, ok := m.Fn.(*ssa.Function); ok && f.Synthetic != "" {
						if obj, ok := f.Object().(*types.Func); ok && isHasSynced(obj) {
							return true // informer.HasSynced as a value
						}
					}
				}
			}
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			f, recv, _ := callee(call.Common())
			if isHasSynced(f) || kube.IsFactoryStart(f, recvType(recv)) || kube.IsInformerRun(f, recvType(recv)) {
				return true
			}
		}
	}
	return false
}

// waitAPIs returns the types with an exported method that waits for the
// caches, starts nothing and that nothing in the package calls (a
// WaitForCacheSync method next to RunWorkers): such a type leaves the wait
// to its caller, through that method.
func (c *checker) waitAPIs(referenced map[*ssa.Function]bool) map[*types.TypeName]bool {
	out := make(map[*types.TypeName]bool)
	for _, fn := range c.funcs {
		recv := recvNamed(fn)
		if recv == nil || referenced[fn] || !token.IsExported(fn.Name()) {
			continue
		}
		if c.alwaysWaits(fn) && !c.launches(fn, map[*ssa.Function]bool{}) {
			out[recv] = true
		}
	}
	return out
}

// recvNamed is the named type of a method's receiver, or nil.
func recvNamed(fn *ssa.Function) *types.TypeName {
	if fn.Signature.Recv() == nil {
		return nil
	}
	if n := kube.Named(fn.Signature.Recv().Type()); n != nil {
		return n.Obj()
	}
	return nil
}

// launches reports whether fn, or a package function it calls, has a go
// statement or a launcher call.
func (c *checker) launches(fn *ssa.Function, seen map[*ssa.Function]bool) bool {
	if seen[fn] {
		return false
	}
	seen[fn] = true
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Go:
				return true
			case *ssa.Call:
				if _, ok := workerLauncher(ssax.Callee(x.Common())); ok {
					return true
				}
				if h := c.plainCallee(x); h != nil && c.launches(h, seen) {
					return true
				}
			}
		}
	}
	return false
}
