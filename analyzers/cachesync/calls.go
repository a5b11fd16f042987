package cachesync

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
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
	if i, ok := kube.WorkerLauncher(fn); ok {
		if i < len(args) {
			return c.local(args[i])
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
	if _, isLauncher := kube.WorkerLauncher(ssax.Callee(call.Common())); isLauncher {
		return nil
	}
	return c.local(call.Common().Value)
}

// local is the package function (with a body) a function value runs.
func (c *checker) local(v ssa.Value) *ssa.Function {
	fn, _ := ssax.Func(c.pkg, v)
	return fn
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
