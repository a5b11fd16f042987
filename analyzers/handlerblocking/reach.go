package handlerblocking

import (
	"cmp"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/eventpath"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// reach returns the package functions the handler root runs on its own
// goroutine, each mapped to the function that first calls it (root to
// nil), breadth first so that the chain a message names is a shortest one.
//
// Followed: direct calls, deferred calls, closures and method values
// called, calls through func-typed struct fields (eventpath's FieldFuncs),
// and functions handed to the package's own functions or to the library
// helpers known to call them before returning (syncRunner). Not followed:
// go statements (the goroutine is not the handler), and functions handed
// to other code, which may keep them for later (time.AfterFunc).
func reach(paths *eventpath.Paths, root *ssa.Function) map[*ssa.Function]*ssa.Function {
	pkg := root.Pkg
	parent := map[*ssa.Function]*ssa.Function{root: nil}
	queue := []*ssa.Function{root}
	add := func(from, fn *ssa.Function) {
		if fn == nil || fn.Pkg != pkg || fn.Blocks == nil {
			return
		}
		if _, seen := parent[fn]; seen {
			return
		}
		parent[fn] = from
		queue = append(queue, fn)
	}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if _, ok := call.(*ssa.Go); ok {
					continue // runs on a goroutine of its own
				}
				common := call.Common()
				callee, _ := ssax.Func(pkg, common.Value)
				add(fn, callee)
				if f := ssax.LoadedField(common.Value); f != nil {
					for _, target := range paths.FieldFuncs()[f] {
						t, _ := ssax.Func(pkg, target)
						add(fn, t)
					}
				}
				if callee == nil && !syncRunner(ssax.Callee(common)) {
					continue // other code may keep what it is handed
				}
				for _, arg := range common.Args {
					t, _ := ssax.Func(pkg, arg)
					add(fn, t)
				}
			}
		}
	}
	return parent
}

// syncRunner reports whether fn is a library function that runs the
// functions it is handed before it returns: retry.RetryOnConflict and
// retry.OnError, wait's Poll* and ExponentialBackoff* helpers, and
// sync.Once's Do.
func syncRunner(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case kube.RetryPkg:
		return fn.Name() == "RetryOnConflict" || fn.Name() == "OnError"
	case kube.WaitPkg:
		return isWaitFunc(fn)
	case "sync":
		return fn.Name() == "Do"
	}
	return false
}

// order lists the functions of parent in the order reach found them
// (breadth first from root), so that reports come out deterministically.
func order(parent map[*ssa.Function]*ssa.Function, root *ssa.Function) []*ssa.Function {
	children := make(map[*ssa.Function][]*ssa.Function)
	for fn, p := range parent {
		if p != nil {
			children[p] = append(children[p], fn)
		}
	}
	out := []*ssa.Function{root}
	for i := 0; i < len(out); i++ {
		kids := children[out[i]]
		slices.SortFunc(kids, func(a, b *ssa.Function) int {
			if c := cmp.Compare(a.Pos(), b.Pos()); c != 0 {
				return c
			}
			return strings.Compare(a.String(), b.String())
		})
		out = append(out, kids...)
	}
	return out
}

// via names the functions from the handler root to fn, both included,
// function literals left out (a literal has no name worth reading).
func via(parent map[*ssa.Function]*ssa.Function, fn *ssa.Function) []string {
	var chain []string
	for f := fn; f != nil; f = parent[f] {
		if f.Parent() != nil {
			continue // a function literal: named by its enclosing function
		}
		chain = append(chain, funcName(f))
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}

// funcName spells a function as its callers do: c.updatePod for a method
// (with the receiver's name), lookup for a function.
func funcName(fn *ssa.Function) string {
	if fn.Signature.Recv() != nil && len(fn.Params) > 0 {
		recv := fn.Params[0].Name()
		if recv == "" || recv == "_" || strings.HasPrefix(recv, "t") && len(recv) > 1 && recv[1] >= '0' && recv[1] <= '9' {
			if n := kube.Named(fn.Signature.Recv().Type()); n != nil {
				recv = n.Obj().Name()
			}
		}
		return recv + "." + fn.Name()
	}
	return fn.Name()
}
