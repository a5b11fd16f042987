package cachesync

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const leaderElectionPkg = "k8s.io/client-go/tools/leaderelection"

// checkWaitBeforeStart reports a factory's WaitForCacheSync that a
// function reaches, on a path, before it calls that factory's Start: the
// factory waits only for the informers it has started, none yet, so the
// wait returns at once and what follows reads empty listers. The wait is
// followed into the closures and package functions the function calls
// there, and into the OnStartedLeading callback of a leader election it
// runs there (RunOrDie blocks while it leads, so a Start after it comes
// too late).
func (c *checker) checkWaitBeforeStart() {
	startsOf := make(map[any][]*ssa.Function) // factory key -> functions that start it
	type startAt struct {
		instr ssa.Instruction
		key   any
	}
	var all []startAt
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if f, recv, _ := callee(call.Common()); kube.IsFactoryStart(f, recvType(recv)) {
					key := resolveKey(recv, nil)
					startsOf[key] = append(startsOf[key], fn)
					all = append(all, startAt{instr, key})
				}
			}
		}
	}
	reported := make(map[ssa.Instruction]bool)
	for _, s := range all {
		if !c.startsOnlyIn(s.key, s.instr.Parent(), startsOf) {
			continue // another function may have started it before
		}
		c.checkStartOrder(s.instr, s.key, reported)
	}
}

// startsOnlyIn reports whether the factory is one fn makes, or a field or
// package variable only fn starts: then nothing started it before fn.
func (c *checker) startsOnlyIn(key any, fn *ssa.Function, startsOf map[any][]*ssa.Function) bool {
	switch key.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return false // the caller may have started it
	case *types.Var, *ssa.Global:
		for _, other := range startsOf[key] {
			if other != fn {
				return false
			}
		}
	}
	return true
}

// checkStartOrder reports the waits on the factory key reached in the
// function of startInstr before that Start.
func (c *checker) checkStartOrder(startInstr ssa.Instruction, key any, reported map[ssa.Instruction]bool) {
	fn := startInstr.Parent()
	defer crash.At(c.pass.Fset, fn.Pos())
	afterStart := make(map[ssa.Instruction]bool)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if f, recv, _ := callee(call.Common()); kube.IsFactoryStart(f, recvType(recv)) && resolveKey(recv, nil) == key {
				for _, a := range reachableAfter(instr).order {
					afterStart[a] = true
				}
			}
		}
	}
	leaders := c.leaderCallbacks(fn)
	startLine := c.line(startInstr)
	before := func(instr ssa.Instruction) bool {
		return !afterStart[instr] && reachableAfter(instr).set[startInstr]
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || afterStart[instr] || reported[instr] {
				continue
			}
			g := c.local(call.Common().Value)
			if !c.isFactoryWait(call, key, nil) && g == nil && !isLeaderElectionRun(call.Common()) {
				continue
			}
			if !before(instr) {
				continue // not before this Start on a path
			}
			var msg string
			switch {
			case c.isFactoryWait(call, key, nil):
				msg = fmt.Sprintf("WaitForCacheSync of %s is called before its Start (line %d)", factoryName(key), startLine)
			case g != nil:
				w := c.factoryWaitIn(g, key, c.bindParams(g, call.Common(), key, nil), maxRequestDepth, map[*ssa.Function]bool{})
				if w == nil {
					continue
				}
				msg = fmt.Sprintf("%s waits for %s (WaitForCacheSync, line %d) before its Start (line %d)", label(g), factoryName(key), c.line(w), startLine)
			case isLeaderElectionRun(call.Common()):
				for _, g := range leaders {
					if w := c.factoryWaitIn(g, key, nil, maxRequestDepth, map[*ssa.Function]bool{}); w != nil {
						msg = fmt.Sprintf("the OnStartedLeading callback %s waits for %s (WaitForCacheSync, line %d), and the leader election run here blocks before its Start (line %d)", label(g), factoryName(key), c.line(w), startLine)
						break
					}
				}
			}
			if msg == "" {
				continue
			}
			reported[instr] = true
			c.pass.Report(analysis.Diagnostic{Pos: instr.Pos(), Message: msg +
				": the factory waits only for the informers it has started, none yet, so the wait returns at once and the listers are read empty; call Start before waiting"})
		}
	}
}

// isFactoryWait reports whether call is an informer factory's
// WaitForCacheSync on the factory key.
func (c *checker) isFactoryWait(call *ssa.Call, key any, params map[*ssa.Parameter]any) bool {
	fn, recv, _ := callee(call.Common())
	if recv == nil || !kube.IsInformerFactory(recv.Type()) || !kube.WaitsForCacheSync(fn, recv.Type()) {
		return false
	}
	return resolveKey(recv, params) == key
}

// factoryWaitIn returns the first WaitForCacheSync on the factory key in
// fn, or in a package function fn calls, that no Start of that factory in
// fn precedes.
func (c *checker) factoryWaitIn(fn *ssa.Function, key any, params map[*ssa.Parameter]any, depth int, seen map[*ssa.Function]bool) ssa.Instruction {
	if depth < 0 || seen[fn] || c.inTest(fn) {
		return nil
	}
	seen[fn] = true
	started := make(map[ssa.Instruction]bool)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if f, recv, _ := callee(call.Common()); kube.IsFactoryStart(f, recvType(recv)) && resolveKey(recv, params) == key {
				for _, a := range reachableAfter(instr).order {
					started[a] = true
				}
			}
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || started[instr] {
				continue
			}
			if c.isFactoryWait(call, key, params) {
				return instr
			}
			if h := c.local(call.Common().Value); h != nil {
				if w := c.factoryWaitIn(h, key, c.bindParams(h, call.Common(), key, params), depth-1, seen); w != nil {
					return w
				}
			}
		}
	}
	return nil
}

// bindParams maps the parameters of h that a call gives the factory key
// to that key (params resolves the caller's own parameters).
func (c *checker) bindParams(h *ssa.Function, common *ssa.CallCommon, key any, params map[*ssa.Parameter]any) map[*ssa.Parameter]any {
	_, offset := ssax.Func(c.pkg, common.Value)
	var out map[*ssa.Parameter]any
	for i, arg := range common.Args {
		if p := i + offset; p < len(h.Params) && resolveKey(arg, params) == key {
			if out == nil {
				out = make(map[*ssa.Parameter]any)
			}
			out[h.Params[p]] = key
		}
	}
	return out
}

// resolveKey is factoryKey seen from the function that makes a closure:
// a captured factory is the value or local variable it was captured
// from, a parameter the key its caller bound to it.
func resolveKey(v ssa.Value, params map[*ssa.Parameter]any) any {
	for range 8 {
		v = flow.Origin(v, flow.Conversions)
		switch x := v.(type) {
		case *ssa.Parameter:
			if k, ok := params[x]; ok {
				return k
			}
			return x
		case *ssa.FreeVar:
			b := captured(x)
			if b == nil {
				return x
			}
			v = b
			continue
		case *ssa.UnOp:
			if x.Op == token.MUL {
				addr := x.X
				if fv, ok := addr.(*ssa.FreeVar); ok {
					if b := captured(fv); b != nil {
						addr = b
					}
				}
				if alloc, ok := addr.(*ssa.Alloc); ok {
					return alloc // a local variable the factory is kept in
				}
			}
		}
		return factoryKey(v)
	}
	return factoryKey(v)
}

// leaderCallbacks returns the package functions fn sets as
// OnStartedLeading callbacks of a leader election.
func (c *checker) leaderCallbacks(fn *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && isOnStartedLeading(st.Addr) {
				if g := c.local(st.Val); g != nil {
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// isOnStartedLeading reports whether addr is the OnStartedLeading field
// of client-go's leaderelection.LeaderCallbacks.
func isOnStartedLeading(addr ssa.Value) bool {
	f := ssax.FieldOfAddr(addr)
	if f == nil || f.Name() != "OnStartedLeading" {
		return false
	}
	fa := addr.(*ssa.FieldAddr)
	return kube.Is(fa.X.Type(), leaderElectionPkg, "LeaderCallbacks") // through the pointer
}

// isLeaderElectionRun reports whether a call runs a leader election in the
// caller's goroutine: leaderelection.RunOrDie or LeaderElector.Run, which
// call OnStartedLeading once elected and return only when leading ends.
func isLeaderElectionRun(common *ssa.CallCommon) bool {
	fn := ssax.Callee(common)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != leaderElectionPkg {
		return false
	}
	return fn.Name() == "RunOrDie" || fn.Name() == "Run"
}
