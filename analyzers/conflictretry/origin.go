package conflictretry

import (
	"fmt"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// originOf says where the enclosing function got the object a captured
// variable holds when the retry starts, for the message; ok is false
// unless it is an object read from the API server or a cache (whose
// resourceVersion is set): a parameter (a caller's object), a Get of a
// typed or dynamic client, a lister Get, a controller-runtime Get into it,
// a DeepCopy of one of these, or a helper of the package returning one. A
// new object has no resourceVersion: its Update is unconditional and
// never conflicts.
func (c *checker) originOf(outer *ssa.Function, mc *ssa.MakeClosure, binding ssa.Value) (string, bool) {
	alloc, ok := binding.(*ssa.Alloc)
	if !ok {
		return "", false
	}
	if isObjectPointer(alloc.Type()) {
		// A struct variable (var obj v1.Foo): read by a controller-runtime
		// Get into it before the retry.
		if g := c.getInto(outer, alloc, mc, false); g != "" {
			return g, true
		}
		return "", false
	}
	if escapes(alloc, mc) {
		return "", false // another closure or callee may assign it meanwhile
	}
	return c.varOrigin(outer, alloc, mc, 0)
}

// escapes reports whether a captured pointer variable may be assigned by
// code other than the enclosing function and the retried closure: its
// address is handed to a call or stored, or another closure assigns it.
func escapes(alloc *ssa.Alloc, mc *ssa.MakeClosure) bool {
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.Store:
			if ref.Addr != alloc {
				return true // &obj stored away
			}
		case *ssa.MakeClosure:
		default:
			return true // &obj handed on
		}
	}
	for _, fv := range flow.Succs(alloc, flow.FreeVars) {
		if fv.Parent() == mc.Fn {
			continue
		}
		for _, use := range *fv.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == fv {
				return true
			}
		}
	}
	return false
}

// varOrigin says where the objects a pointer variable holds before the
// retry were read: a controller-runtime Get into the object it holds, or
// the origin of every value stored into it.
func (c *checker) varOrigin(outer *ssa.Function, alloc *ssa.Alloc, mc *ssa.MakeClosure, depth int) (string, bool) {
	if g := c.getInto(outer, alloc, mc, true); g != "" {
		return g, true
	}
	var where string
	for _, st := range storesTo(alloc) {
		if !before(st, mc) {
			continue
		}
		w, ok := c.readOrigin(outer, st.Val, mc, depth+1)
		if !ok {
			return "", false // one of its values is not known to be read
		}
		if where == "" {
			where = w
		}
	}
	return where, where != ""
}

// storesTo returns the assignments of a local variable.
func storesTo(alloc *ssa.Alloc) []*ssa.Store {
	var out []*ssa.Store
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			out = append(out, st)
		}
	}
	return out
}

// readOrigin says where v, an object pointer, was read.
func (c *checker) readOrigin(outer *ssa.Function, v ssa.Value, mc *ssa.MakeClosure, depth int) (string, bool) {
	if depth > 6 {
		return "", false
	}
	switch x := flow.Origin(v, flow.Conversions|flow.Asserts).(type) {
	case *ssa.Parameter:
		if c.builtByCaller(x) {
			return "", false // a caller hands in a new object, without resourceVersion
		}
		return fmt.Sprintf("the parameter %s of %s", x.Name(), funcName(outer)), true
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
			return c.readCall(outer, call, mc, depth)
		}
	case *ssa.Call:
		return c.readCall(outer, x, mc, depth)
	case *ssa.UnOp:
		// A variable the function keeps in memory (captured, or its
		// address taken).
		if a, ok := x.X.(*ssa.Alloc); ok && x.Op == token.MUL && a.Parent() == outer {
			return c.varOrigin(outer, a, mc, depth+1)
		}
	case *ssa.Alloc:
		// &v1.Foo{} filled by a controller-runtime Get.
		if g := c.getInto(outer, x, mc, false); g != "" {
			return g, true
		}
	}
	return "", false
}

// readCall says where the object a call returns was read: a Get of a typed
// or dynamic client or of a lister, a DeepCopy of a read object, or a
// helper of the package that returns one.
func (c *checker) readCall(outer *ssa.Function, call *ssa.Call, mc *ssa.MakeClosure, depth int) (string, bool) {
	if recv, ok := kubessa.DeepCopyOf(call); ok {
		return c.readOrigin(outer, recv, mc, depth+1)
	}
	fn, recv, _ := ssax.MethodCall(call.Common())
	if fn != nil && fn.Name() == "Get" && (kube.IsTypedResourceClient(recv) || kube.IsDynamicResourceClient(recv) || kube.IsLister(recv)) {
		return fmt.Sprintf("read by Get at line %d", c.line(call.Pos())), true
	}
	if h := call.Common().StaticCallee(); h != nil && h.Pkg == c.pkg && h.Blocks != nil && c.returnsRead(h) {
		return fmt.Sprintf("read by %s at line %d", helperName(h), c.line(call.Pos())), true
	}
	return "", false
}

// returnsRead reports whether a function of the package returns, as its
// first result, an object it read on every path that returns one (a nil
// result aside).
func (c *checker) returnsRead(fn *ssa.Function) bool {
	if r, ok := c.reads[fn]; ok {
		return r != ""
	}
	c.reads[fn] = ""
	found := false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		v := flow.Origin(ret.Results[0], flow.Conversions)
		if k, ok := v.(*ssa.Const); ok && k.IsNil() {
			continue
		}
		if _, isParam := v.(*ssa.Parameter); isParam {
			return false // hands back what it was given
		}
		if _, ok := c.readOrigin(fn, v, nil, 1); !ok {
			return false
		}
		found = true
	}
	if found {
		c.reads[fn] = "read"
	}
	return found
}

// getInto says where a controller-runtime Get fills, before the retry,
// an object the function allocated (or, for a pointer variable, the
// object the variable holds): "" when none does.
func (c *checker) getInto(fn *ssa.Function, alloc *ssa.Alloc, mc *ssa.MakeClosure, loaded bool) string {
	ptrs := []ssa.Value{alloc}
	if loaded {
		ptrs = flow.Succs(alloc, flow.Loads)
	}
	var where string
	for _, p := range ptrs {
		flow.Uses(p, flow.Conversions, func(use ssa.Instruction, _ ssa.Value) bool {
			call, ok := use.(ssa.CallInstruction)
			if !ok || !before(call, mc) {
				return true
			}
			f, recv, args := ssax.MethodCall(call.Common())
			if f != nil && f.Name() == "Get" && kube.IsCRReader(recv) && len(args) >= 3 && flow.Origin(args[2], flow.Conversions) == p {
				where = fmt.Sprintf("read by Get at line %d", c.line(call.Pos()))
				return false
			}
			return true
		})
		if where != "" {
			break
		}
	}
	return where
}

// before reports whether instr may run before the closure is made: it
// precedes it in its block, or its block reaches the closure's.
func before(instr ssa.Instruction, mc *ssa.MakeClosure) bool {
	if mc == nil {
		return true
	}
	b, target := instr.Block(), mc.Block()
	if b == target {
		for _, i := range b.Instrs {
			switch i {
			case instr:
				return true
			case mc:
				return false
			}
		}
	}
	return ssax.Reaches(b.Succs, func(x *ssa.BasicBlock) bool { return x == target })
}

func funcName(fn *ssa.Function) string {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn.Signature.Recv() != nil {
		return helperName(fn)
	}
	return fn.Name()
}

// builtByCaller reports whether a call of the parameter's function in the
// package passes, for it, an object the caller built (a literal, or what
// a constructor of the package returns) rather than read: a desired
// object, whose update carries no resourceVersion.
func (c *checker) builtByCaller(p *ssa.Parameter) bool {
	fn := p.Parent()
	i := slices.Index(fn.Params, p)
	k := paramKey{fn, i}
	if b, ok := c.built[k]; ok {
		return b
	}
	c.built[k] = false
	for _, caller := range c.funcs {
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || call.Common().StaticCallee() != fn || i >= len(call.Common().Args) {
					continue
				}
				if c.isBuilt(caller, call.Common().Args[i], 0) {
					c.built[k] = true
					return true
				}
			}
		}
	}
	return false
}

// isBuilt reports whether v is an object the function made rather than
// read: a composite literal no controller-runtime Get fills, a variable
// holding one, or the result of a function of the package that returns
// one.
func (c *checker) isBuilt(fn *ssa.Function, v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := flow.Origin(v, flow.Conversions).(type) {
	case *ssa.Alloc:
		return c.getInto(fn, x, nil, false) == ""
	case *ssa.UnOp:
		a, ok := x.X.(*ssa.Alloc)
		if !ok || c.getInto(fn, a, nil, true) != "" {
			return false
		}
		for _, st := range storesTo(a) {
			if c.isBuilt(fn, st.Val, depth+1) {
				return true
			}
		}
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
			return c.isBuilt(fn, call, depth+1)
		}
	case *ssa.Call:
		g := x.Common().StaticCallee()
		if g == nil || g.Pkg != c.pkg || g.Blocks == nil {
			return false
		}
		for _, b := range g.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
				if a, ok := flow.Origin(ret.Results[0], flow.Conversions).(*ssa.Alloc); ok && c.getInto(g, a, nil, false) == "" {
					return true
				}
			}
		}
	}
	return false
}
