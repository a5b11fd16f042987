package listerbypass

import (
	"fmt"
	"go/constant"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// An empty lister answer is the truth once the informer has synced. A live
// List made whenever the lister finds no object of the resource is a
// fallback meant for the time before that, and without a HasSynced test it
// runs on every lookup where none exist, which is the common case:
// kubernetes' ResourceQuota admission listed a namespace's quotas live on
// every admission in a namespace without quotas until v1.32.3 (PR 130113),
// a regression once LISTs became consistent reads.

// checkFallbacks reports the clientset Lists of fn that run whenever a
// lister List of the same resource comes back empty, in a function that
// never asks whether an informer has synced.
func checkFallbacks(pass *analysis.Pass, fn *ssa.Function) {
	if fn.Blocks == nil || ssax.InTest(fn) || testsSynced(fn) {
		return
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !call.Common().IsInvoke() || call.Common().Method.Name() != "List" || !kube.IsLister(call.Common().Value.Type()) {
				continue
			}
			obj := kube.ObjectOf(call.Common().Value.Type())
			if obj == nil {
				continue
			}
			items := flow.Result(call, 0)
			if items == nil {
				continue
			}
			if empty := emptyBranch(fn, items); empty != nil {
				reportFallback(pass, fn, empty, kube.ObjectKey(obj), kube.Kind(obj))
			}
		}
	}
}

// emptyBranch returns the block entered when len(items) == 0 (or
// len(items) < 1), or nil.
func emptyBranch(fn *ssa.Function, items ssa.Value) *ssa.BasicBlock {
	derived := flow.Slice(fn, []ssa.Value{items})
	for _, b := range fn.Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := iff.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		l, ok := cmp.X.(*ssa.Call)
		if !ok || !isLen(l) || !derived[l.Call.Args[0]] || !isZero(cmp.Y, cmp.Op) {
			continue
		}
		switch cmp.Op {
		case token.EQL, token.LSS:
			return b.Succs[0]
		case token.NEQ, token.GTR:
			return b.Succs[1]
		}
	}
	return nil
}

func isLen(c *ssa.Call) bool {
	b, ok := c.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "len" && len(c.Call.Args) == 1
}

// isZero: len(x) == 0, != 0, > 0, or < 1.
func isZero(v ssa.Value, op token.Token) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	n, _ := constant.Int64Val(c.Value)
	return n == 0 && op != token.LSS || n == 1 && op == token.LSS
}

// reportFallback reports the first clientset List of the resource in the
// blocks the empty branch dominates, or in closures made there (a
// singleflight.Group's Do).
func reportFallback(pass *analysis.Pass, fn *ssa.Function, empty *ssa.BasicBlock, key, kind string) {
	seen := map[*ssa.Function]bool{}
	var find func(blocks []*ssa.BasicBlock) ssa.CallInstruction
	find = func(blocks []*ssa.BasicBlock) ssa.CallInstruction {
		for _, b := range blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if cl := mc.Fn.(*ssa.Function); !seen[cl] {
						seen[cl] = true
						if c := find(cl.Blocks); c != nil {
							return c
						}
					}
					continue
				}
				if r, ok := readOf(instr, &caches{}); ok && r.kind == typedRead && r.method == "List" && r.key == key {
					return r.call
				}
			}
		}
		return nil
	}
	var dominated []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		if empty.Dominates(b) {
			dominated = append(dominated, b)
		}
	}
	if c := find(dominated); c != nil {
		pass.Report(analysis.Diagnostic{
			Pos:     c.Pos(),
			Message: fmt.Sprintf("clientset List of %s runs whenever the %s lister finds none, and once the informer has synced an empty answer is the truth: every lookup where none exist goes to the API server; make the live List only until the informer's HasSynced", kind, kind),
		})
	}
}

// testsSynced reports whether fn asks an informer whether it has synced:
// a HasSynced method, or a func value kept under such a name
// (e.hasSynced()).
func testsSynced(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			c := call.Common()
			name := ""
			switch {
			case c.IsInvoke():
				name = c.Method.Name()
			case c.StaticCallee() != nil:
				name = c.StaticCallee().Name()
			default:
				if f := ssax.LoadedField(c.Value); f != nil {
					name = f.Name()
				}
			}
			if strings.Contains(strings.ToLower(name), "synced") {
				return true
			}
		}
	}
	return false
}
