package cachesync

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// callee returns the function or method a call names, the receiver value
// of a method call (nil for a function) and the arguments without it.
func callee(common *ssa.CallCommon) (fn *types.Func, recv ssa.Value, args []ssa.Value) {
	fn = ssax.Callee(common)
	if common.IsInvoke() {
		return fn, common.Value, common.Args
	}
	if fn == nil {
		return nil, nil, common.Args
	}
	if sig, _ := fn.Type().(*types.Signature); sig != nil && sig.Recv() != nil && len(common.Args) > 0 {
		return fn, common.Args[0], common.Args[1:]
	}
	return fn, nil, common.Args
}

// recvType is the static type of a receiver value, or nil.
func recvType(recv ssa.Value) types.Type {
	if recv == nil {
		return nil
	}
	return recv.Type()
}

// launched returns the package function a call instruction runs on a
// goroutine of its own or in a loop: the function argument of a wait loop
// helper, wait.Group, WaitGroup.Go or errgroup, or the function of a go
// statement. Deferred calls launch nothing.
func (c *checker) launched(instr ssa.CallInstruction) *ssa.Function {
	if _, ok := instr.(*ssa.Defer); ok {
		return nil
	}
	common := instr.Common()
	fn, _, args := callee(common)
	if i, ok := workerLauncher(fn); ok {
		if i < len(args) {
			return c.funcValue(args[i])
		}
		return nil
	}
	if _, ok := instr.(*ssa.Go); ok && !common.IsInvoke() {
		return c.local(common.Value)
	}
	return nil
}

// plainCallee returns the package function a call (not a go statement, a
// deferred call or a launcher) runs in the caller's goroutine, or nil.
func (c *checker) plainCallee(instr ssa.Instruction) *ssa.Function {
	call, ok := instr.(*ssa.Call)
	if !ok || call.Common().IsInvoke() {
		return nil
	}
	if _, isLauncher := workerLauncher(ssax.Callee(call.Common())); isLauncher {
		return nil
	}
	return c.local(call.Common().Value)
}

// funcValue is the package function a function value runs, also when the
// value is made by a package function that returns a closure
// (wait.UntilWithContext(ctx, rq.worker(rq.queue), time.Second)).
func (c *checker) funcValue(v ssa.Value) *ssa.Function {
	if fn := c.local(v); fn != nil {
		return fn
	}
	call, ok := v.(*ssa.Call)
	if !ok || call.Common().IsInvoke() {
		return nil
	}
	maker := c.local(call.Common().Value)
	if maker == nil {
		return nil
	}
	for _, b := range maker.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) == 1 {
			if fn := c.local(ret.Results[0]); fn != nil {
				return fn
			}
		}
	}
	return nil
}

// local is the package function (with a body) a function value runs,
// also when a closure calls another closure it captured
// (resourcequota's worker calls its captured workFunc).
func (c *checker) local(v ssa.Value) *ssa.Function {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if cell := captured(load.X); cell != nil {
			return c.storedFunc(cell)
		}
	}
	if b := captured(v); b != nil {
		v = b
	}
	fn, _ := ssax.Func(c.pkg, v)
	return fn
}

// captured returns the value every closure of a free variable's function
// binds to it (flow.Binding), or nil when v is no free variable.
func captured(v ssa.Value) ssa.Value {
	if fv, ok := v.(*ssa.FreeVar); ok {
		return flow.Binding(fv)
	}
	return nil
}

// storedFunc is the one package function stored in a local cell (a
// variable a closure captures), or nil.
func (c *checker) storedFunc(cell ssa.Value) *ssa.Function {
	alloc, ok := cell.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var found *ssa.Function
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			fn, _ := ssax.Func(c.pkg, st.Val)
			if fn == nil || (found != nil && fn != found) {
				return nil
			}
			found = fn
		}
	}
	return found
}

// label names a function as its source does: c.runWorker for a method
// with receiver c, runWorker for a function, and the package function it
// was written in for a func literal.
func label(fn *ssa.Function) string {
	if fn.Parent() != nil {
		return "a func literal in " + label(root(fn))
	}
	if fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0].Name() != "_" && fn.Params[0].Name() != "" {
		return fn.Params[0].Name() + "." + fn.Name()
	}
	return fn.Name()
}

// typeLabel names a package function for a caller, which may spell its
// receiver differently: Controller.Run for a method, the name for a
// function.
func typeLabel(fn *ssa.Function) string {
	if t := recvNamed(fn); t != nil {
		return t.Name() + "." + fn.Name()
	}
	return fn.Name()
}

// root is the package function a func literal is written in.
func root(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// inTest reports whether fn is written in a _test.go file: tests start
// controllers against fake informers on purpose.
func (c *checker) inTest(fn *ssa.Function) bool {
	pos := fn.Pos()
	if !pos.IsValid() {
		pos = root(fn).Pos()
	}
	if !pos.IsValid() {
		return false
	}
	return strings.HasSuffix(c.pass.Fset.Position(pos).Filename, "_test.go")
}
