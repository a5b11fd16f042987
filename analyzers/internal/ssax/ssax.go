// Package ssax holds the small questions about SSA values that several
// analyzers ask: which local allocation an address points into, which
// struct field a value was loaded from, which package function a function
// value denotes, where an expression's selector chain starts.
package ssax

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// LocalRoot returns the local allocation an address points into (through
// field and element addresses), or nil.
func LocalRoot(addr ssa.Value) *ssa.Alloc {
	for {
		switch a := addr.(type) {
		case *ssa.Alloc:
			return a
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.FieldAddr:
			addr = a.X
		default:
			return nil
		}
	}
}

// FieldOfAddr returns the struct field an address (&x.f) points to, or nil.
func FieldOfAddr(addr ssa.Value) *types.Var {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	pt, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := pt.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

// LoadedField returns the struct field a value was loaded from (x.f), or nil.
func LoadedField(v ssa.Value) *types.Var {
	if load, ok := v.(*ssa.UnOp); ok {
		return FieldOfAddr(load.X)
	}
	return nil
}

// FieldOf returns the struct field a value was read from, loaded through
// an address (p.f) or taken from a struct value (s.f), or nil.
func FieldOf(v ssa.Value) *types.Var {
	if f, ok := v.(*ssa.Field); ok {
		if st, ok := f.X.Type().Underlying().(*types.Struct); ok && f.Field < st.NumFields() {
			return st.Field(f.Field)
		}
		return nil
	}
	return LoadedField(v)
}

// Reaches reports whether some block reachable from the given ones (them
// included) satisfies pred, searching each block once.
func Reaches(from []*ssa.BasicBlock, pred func(*ssa.BasicBlock) bool) bool {
	return Walk(from, false, func(b *ssa.BasicBlock) Step {
		if pred(b) {
			return Stop
		}
		return Expand
	})
}

// Step is what a Walk does after visiting a block.
type Step int

const (
	Expand Step = iota // go on to the block's successors (predecessors, backward)
	Prune              // go no further through this block
	Stop               // end the walk: what it looked for is found
)

// Walk visits the blocks reachable from the given ones (them included),
// along Succs or, backward, along Preds, each once, until visit says Stop,
// and reports whether it did.
func Walk(from []*ssa.BasicBlock, backward bool, visit func(*ssa.BasicBlock) Step) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	work := append([]*ssa.BasicBlock(nil), from...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		switch visit(b) {
		case Stop:
			return true
		case Expand:
			if backward {
				work = append(work, b.Preds...)
			} else {
				work = append(work, b.Succs...)
			}
		}
	}
	return false
}

// Func resolves a function value to the function it runs: a function, the
// function of a closure, or, for a bound method value (x.m), the method
// itself (offset 1: its receiver is bound, not an argument). Functions of
// other packages than pkg, and ones without a body, give nil.
func Func(pkg *ssa.Package, v ssa.Value) (fn *ssa.Function, offset int) {
	switch v := v.(type) {
	case *ssa.MakeClosure:
		return Func(pkg, v.Fn)
	case *ssa.ChangeType:
		return Func(pkg, v.X)
	case *ssa.Function:
		fn = v
	default:
		return nil, 0
	}
	if fn.Synthetic != "" {
		m, ok := fn.Object().(*types.Func)
		if !ok {
			return nil, 0
		}
		fn, offset = pkg.Prog.FuncValue(m), 1
	}
	if fn == nil || fn.Pkg != pkg || fn.Blocks == nil {
		return nil, 0
	}
	return fn, offset
}

// Callee is the function or method a call statically names, in the
// package or a library (the interface method for an invoke), or nil for a
// call of a func value.
func Callee(common *ssa.CallCommon) *types.Func {
	if common.IsInvoke() {
		return common.Method
	}
	if fn := common.StaticCallee(); fn != nil {
		f, _ := fn.Object().(*types.Func)
		return f
	}
	return nil
}

// RootIdent returns the identifier a selector chain starts from: x for
// x.Name, x.GetName(), x.a.b(), &x and *x; nil when it starts elsewhere.
func RootIdent(e ast.Expr) *ast.Ident { return root(e, false) }

// AssignedIdent returns the variable an assignment to e (or its address,
// or an increment) changes: x for x, x.f, x[i] and *x. A call's result is
// another value than the variable it is called on, so x.Get().f is not x.
func AssignedIdent(e ast.Expr) *ast.Ident { return root(e, true) }

// root walks e's chain back to its identifier: through selectors and
// indirections always, through index expressions for a place assigned
// (lvalue), through calls and & for a selector chain otherwise.
func root(e ast.Expr, lvalue bool) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			if !lvalue {
				return nil
			}
			e = x.X
		case *ast.CallExpr:
			if lvalue {
				return nil
			}
			e = x.Fun
		case *ast.UnaryExpr:
			if lvalue {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// StoredFuncs maps each func-typed struct field to the values stored in it
// anywhere in funcs (sample-controller's c.syncHandler = c.syncHandler,
// kubernetes' jm.updateStatusHandler = jm.updateJobStatus): a call through
// the field may run any of them. Callers resolve the values (Func) and
// decide what an unresolvable one means.
func StoredFuncs(funcs []*ssa.Function) map[*types.Var][]ssa.Value {
	m := make(map[*types.Var][]ssa.Value)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				f := FieldOfAddr(st.Addr)
				if f == nil {
					continue
				}
				if _, isFunc := f.Type().Underlying().(*types.Signature); isFunc {
					m[f] = append(m[f], st.Val)
				}
			}
		}
	}
	return m
}

// Boxed returns the type of the value an interface conversion wraps, less
// one pointer (&corev1.Pod{} passed as client.Object gives corev1.Pod), or
// nil when v is no conversion.
func Boxed(v ssa.Value) types.Type {
	mi, ok := v.(*ssa.MakeInterface)
	if !ok {
		return nil
	}
	t := mi.X.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return t
}

// InTest reports whether fn is test code: it, or a function it is nested
// in (a t.Run body), is handed a value of package testing (*testing.T, B,
// F, testing.TB). The test runner calls such a function and nothing
// outlives it but what it hands on.
func InTest(fn *ssa.Function) bool {
	for ; fn != nil; fn = fn.Parent() {
		for _, p := range fn.Params {
			t := p.Type()
			if ptr, ok := t.(*types.Pointer); ok {
				t = ptr.Elem()
			}
			if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" {
				return true
			}
		}
	}
	return false
}

// MethodCall returns the method a call runs, its receiver's static type and
// its arguments without the receiver: for an interface invocation and for a
// static call of a method alike. It returns nil for a call of a function.
func MethodCall(common *ssa.CallCommon) (*types.Func, types.Type, []ssa.Value) {
	if common.IsInvoke() {
		return common.Method, common.Value.Type(), common.Args
	}
	fn := Callee(common)
	if fn == nil || len(common.Args) == 0 {
		return nil, nil, nil
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return nil, nil, nil
	}
	return fn, common.Args[0].Type(), common.Args[1:]
}

// Receiver returns the value a method call is made on: the interface of an
// invocation, the first argument of a static method call; nil otherwise.
func Receiver(common *ssa.CallCommon) ssa.Value {
	if common.IsInvoke() {
		return common.Value
	}
	if len(common.Args) > 0 {
		return common.Args[0]
	}
	return nil
}

// FuncName is how a message names a function or method: Type.Method for a
// method, qualified by its package's name unless the package is from (nil
// qualifies every name): nodeutil.GetPodsOnNode, apihelper.K8sHelpers.GetNode.
func FuncName(fn *types.Func, from *types.Package) string {
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != nil && fn.Pkg() != from {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}
