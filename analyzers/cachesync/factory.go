package cachesync

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// maxRequestDepth bounds how deep into package calls made after a Start
// the analyzer looks for informer requests (NewController -> newInformers).
const maxRequestDepth = 3

// checkFactories reports informers requested from a factory after its
// Start, in the function that starts it or in the package functions it
// calls afterwards with the factory (or a handle from it), unless Start is
// called again after the request or the package asks for the same informer
// elsewhere (where it may have been created before Start).
func (c *checker) checkFactories() {
	var all []request
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if r, ok := c.directRequest(instr, nil); ok {
					all = append(all, r)
				} else if r, ok := handle(instr); ok {
					all = append(all, r)
				}
			}
		}
	}
	if len(all) == 0 {
		return
	}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if f, recv, _ := callee(call.Common()); kube.IsFactoryStart(f, recvType(recv)) {
					c.checkStart(fn, instr, factoryKey(recv), all)
				}
			}
		}
	}
}

// checkStart reports the requests from the factory key after the Start at
// instr.
func (c *checker) checkStart(fn *ssa.Function, startAt ssa.Instruction, key any, all []request) {
	after := reachableAfter(startAt)
	if c.escapesBefore(fn, key, after.set) {
		return // code out of sight may have asked for anything before Start
	}
	type found struct {
		via ssa.Instruction // the instruction of fn after Start
		req request
	}
	var finds []found
	reached := make(map[*ssa.Function]bool)
	for _, instr := range after.order {
		if r, ok := c.directRequest(instr, key); ok {
			finds = append(finds, found{instr, r})
			continue
		}
		call, ok := instr.(ssa.CallInstruction)
		if !ok {
			continue
		}
		if _, isDefer := instr.(*ssa.Defer); isDefer {
			continue
		}
		for _, r := range c.callRequests(call, key, maxRequestDepth, reached) {
			finds = append(finds, found{instr, r})
		}
		if r, ok := c.handOver(call, key); ok {
			finds = append(finds, found{instr, r})
		}
	}
	reported := make(map[ssa.Instruction]bool)
	for _, f := range finds {
		if reported[f.via] || c.restarted(f.via, key) || c.runs(f.req.at) {
			continue
		}
		if c.requestedElsewhere(f.req, all, fn, key, after.set, reached) {
			continue
		}
		reported[f.via] = true
		startLine := c.line(startAt)
		factory := factoryName(key)
		var msg string
		switch {
		case f.req.handover:
			msg = fmt.Sprintf("%s handle is passed to %s after the Start of %s (line %d)", f.req.what, c.calledName(f.via), factory, startLine)
		case f.via == f.req.at:
			msg = fmt.Sprintf("%s is requested from %s after its Start (line %d)", f.req.what, factory, startLine)
		default:
			msg = fmt.Sprintf("%s requests %s from %s (line %d) after its Start (line %d)", c.calledName(f.via), f.req.what, factory, c.line(f.req.at), startLine)
		}
		c.pass.Report(analysis.Diagnostic{Pos: f.via.Pos(), Message: msg +
			": Start runs only the informers requested before it, so this one never runs, its cache stays empty and its HasSynced never turns true; request every informer before Start, or call Start again after this"})
	}
}

// calledName names the function a call instruction calls.
func (c *checker) calledName(instr ssa.Instruction) string {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return "this call"
	}
	if h := c.local(call.Common().Value); h != nil {
		return label(h)
	}
	if fn := ssax.Callee(call.Common()); fn != nil {
		return fn.Name()
	}
	return "this call"
}

// restarted reports whether a Start of the same factory can follow instr
// in its function.
func (c *checker) restarted(instr ssa.Instruction, key any) bool {
	for _, later := range reachableAfter(instr).order {
		call, ok := later.(ssa.CallInstruction)
		if !ok {
			continue
		}
		if fn, recv, _ := callee(call.Common()); kube.IsFactoryStart(fn, recvType(recv)) && sameFactory(recv, key) {
			return true
		}
	}
	return false
}

// requestedElsewhere reports whether the package asks for the same informer
// of the same factory somewhere else than after this Start (in fn before
// it, in a function fn calls before it, or, for a factory fn is given or
// keeps in a field, anywhere in the package): there it may have been
// created before Start, and this request only returns it. Obtaining the
// per-resource handle counts as asking (it is handed to a constructor).
func (c *checker) requestedElsewhere(r request, all []request, fn *ssa.Function, key any, after map[ssa.Instruction]bool, reached map[*ssa.Function]bool) bool {
	var before map[*ssa.Function]bool
	for _, o := range all {
		if o.at == r.at || after[o.at] || reached[o.fn] {
			continue
		}
		if r.res != "" && o.res != "" && o.res != r.res {
			continue
		}
		switch {
		case o.fn == fn:
			if o.key != key {
				continue
			}
		case isLocal(key):
			if before == nil {
				before = c.calledBefore(fn, after)
			}
			if !before[o.fn] {
				continue // another function cannot see fn's own factory
			}
		}
		return true
	}
	return false
}

// escapesBefore reports whether fn hands the factory (or a handle from
// it) to code the analyzer does not follow before the Start: another
// package's function (kube-controller-manager's constructors take the
// factory), or a struct field or package variable. That code may have
// asked for any informer before Start.
func (c *checker) escapesBefore(fn *ssa.Function, key any, after map[ssa.Instruction]bool) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if after[instr] {
				continue
			}
			switch x := instr.(type) {
			case ssa.CallInstruction:
				if c.local(x.Common().Value) != nil {
					continue // followed: calledBefore
				}
				_, _, args := callee(x.Common())
				for _, arg := range args {
					if derived(arg, key) {
						return true
					}
				}
			case *ssa.Store:
				if _, isCell := x.Addr.(*ssa.Alloc); !isCell && derived(x.Val, key) {
					return true
				}
			}
		}
	}
	return false
}

// isLocal reports whether a factory key is a value of the function itself
// (made there), not a parameter, a field or a package variable.
func isLocal(key any) bool {
	switch key.(type) {
	case *types.Var, *ssa.Parameter, *ssa.Global, *ssa.FreeVar:
		return false
	}
	return true
}

// calledBefore returns the package functions fn calls, directly or a few
// calls deep, at instructions that do not follow the Start.
func (c *checker) calledBefore(fn *ssa.Function, after map[ssa.Instruction]bool) map[*ssa.Function]bool {
	out := make(map[*ssa.Function]bool)
	var visit func(f *ssa.Function, depth int, top bool)
	visit = func(f *ssa.Function, depth int, top bool) {
		if depth == 0 {
			return
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || top && after[instr] {
					continue
				}
				if h := c.local(call.Common().Value); h != nil && !out[h] {
					out[h] = true
					visit(h, depth-1, false)
				}
			}
		}
	}
	visit(fn, maxRequestDepth, true)
	return out
}

// runs reports whether the informer a request returns is run directly
// (go informer.Run(stopCh)): then it does not need the factory's Start.
func (c *checker) runs(at ssa.Instruction) bool {
	v, ok := at.(ssa.Value)
	if !ok {
		return false
	}
	seen := map[ssa.Value]bool{}
	var uses func(v ssa.Value) bool
	uses = func(v ssa.Value) bool {
		if seen[v] || v.Referrers() == nil {
			return false
		}
		seen[v] = true
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case ssa.CallInstruction:
				if fn, recv, _ := callee(r.Common()); recv == v && kube.IsInformerRun(fn, recvType(recv)) {
					return true
				}
			case *ssa.ChangeInterface:
				if uses(r) {
					return true
				}
			case *ssa.MakeInterface:
				if uses(r) {
					return true
				}
			}
		}
		return false
	}
	return uses(v)
}
