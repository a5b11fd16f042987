package cachesync

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// maxActDepth bounds how many package calls separate a cache read from the
// write its "not there" answer decides (gc -> gcOrphaned -> deletePod).
const maxActDepth = 3

// An act is a write to the API server that a cache read's "not there"
// answer decides: a lister Get that failed with NotFound, a store's exists
// that is false, a set or map built from a List that lacks a key, a List
// that came back empty. On an unsynced cache that answer is wrong for
// objects that exist, and the write deletes or relabels what it should
// not.
type act struct {
	read  ssa.Instruction // the cache read
	write ssa.Instruction // the write, or the call of the package function that makes it
}

// writeMethods are the client methods that change or remove what exists.
// A Create is left out: a create of what looks absent fails with
// AlreadyExists.
var writeMethods = map[string]bool{
	"Delete":           true,
	"DeleteCollection": true,
	"Update":           true,
	"UpdateStatus":     true,
	"Patch":            true,
	"Apply":            true,
	"ApplyStatus":      true,
}

// isClientWrite reports whether a call deletes or changes objects through
// a typed, dynamic or metadata client.
func isClientWrite(common *ssa.CallCommon) bool {
	fn, recv, _ := callee(common)
	if fn == nil || recv == nil || !writeMethods[fn.Name()] {
		return false
	}
	t := recv.Type()
	if kube.IsTypedResourceClient(t) || kube.IsDynamicResourceClient(t) {
		return true
	}
	path, _ := kube.PathName(t)
	return path == metadataPkg
}

const metadataPkg = "k8s.io/client-go/metadata"

// writes reports whether a call writes to the API server, itself or
// through package functions (also ones held in func fields, such as
// podgc's deletePod), at most depth calls deep.
func (c *checker) writes(call ssa.CallInstruction, depth int, seen map[*ssa.Function]bool) bool {
	if isClientWrite(call.Common()) {
		return true
	}
	if depth == 0 {
		return false
	}
	var targets []*ssa.Function
	if h := c.local(call.Common().Value); h != nil {
		targets = append(targets, h)
	} else if f := ssax.LoadedField(call.Common().Value); f != nil {
		targets = append(targets, c.fieldFuncs[f]...)
	}
	for _, h := range targets {
		if seen[h] {
			continue
		}
		seen[h] = true
		for _, b := range h.Blocks {
			for _, instr := range b.Instrs {
				if inner, ok := instr.(ssa.CallInstruction); ok && c.writes(inner, depth-1, seen) {
					return true
				}
			}
		}
	}
	return false
}

// cacheRead reports whether instr reads objects from an informer's cache
// (a lister, an informer's store or indexer), not from a store of the
// package's own.
func (c *checker) cacheRead(instr ssa.Instruction) (single, ok bool) {
	call, isCall := instr.(*ssa.Call)
	if !isCall {
		return false, false
	}
	fn, recv, _ := callee(call.Common())
	if recv == nil {
		return false, false
	}
	r, isRead := kube.CacheReadOf(fn, recv.Type())
	if !isRead || !c.readsCache(instr) {
		return false, false
	}
	return !r.Many, true
}

// absenceAct returns the first write of fn (or of a package function it
// hands what it read) that the "not there" answer of a cache read decides,
// among the reads no checked cache-sync wait of fn precedes.
func (c *checker) absenceAct(fn *ssa.Function) (act, bool) {
	if a, ok := c.acts[fn]; ok {
		return a, a.read != nil
	}
	a, ok := c.findAbsenceAct(fn, c.unguarded(fn))
	c.acts[fn] = a
	return a, ok
}

func (c *checker) findAbsenceAct(fn *ssa.Function, keep func(ssa.Instruction) bool) (act, bool) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			single, ok := c.cacheRead(instr)
			if !ok || !keep(instr) {
				continue
			}
			if w := c.actOn(fn, []ssa.Value{instr.(*ssa.Call)}, single, maxActDepth); w != nil {
				return act{read: instr, write: w}, true
			}
		}
	}
	return act{}, false
}

// actOn follows what is computed from seeds in fn (their elements,
// fields, results of calls given them, sets and maps filled with them)
// to an if on whether something is there, and returns the first write
// that only the "not there" branch reaches. Values handed to package
// functions are followed into them, depth calls deep. single says the
// seeds are the results of a one-object read (Get), whose error means
// "not found".
func (c *checker) actOn(fn *ssa.Function, seeds []ssa.Value, single bool, depth int) ssa.Instruction {
	tainted := make(map[ssa.Value]bool)
	var work []ssa.Value
	add := func(v ssa.Value) {
		if v != nil && !tainted[v] {
			tainted[v] = true
			work = append(work, v)
		}
	}
	for _, s := range seeds {
		add(s)
	}
	var calls []ssa.CallInstruction
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			switch r := ref.(type) {
			case *ssa.Extract, *ssa.IndexAddr, *ssa.Index, *ssa.UnOp, *ssa.FieldAddr, *ssa.Field,
				*ssa.Slice, *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.Convert,
				*ssa.TypeAssert, *ssa.Phi, *ssa.Lookup, *ssa.BinOp, *ssa.Range, *ssa.Next:
				add(r.(ssa.Value))
			case *ssa.MapUpdate:
				add(r.Map) // a map keyed by what was read
			case *ssa.Store:
				// A local the value is stored in, or the array behind a
				// variadic call's arguments (names.Insert(node.Name)).
				if alloc := ssax.LocalRoot(r.Addr); alloc != nil && r.Val == v {
					add(alloc)
				}
			case *ssa.Call:
				if _, isRead := c.cacheRead(r); isRead {
					continue // a read of its own, looked at from its own result
				}
				add(r)
				if fill := r.Common(); isFill(fill) {
					if _, recv, _ := callee(fill); recv != nil {
						add(recv) // names.Insert(node.Name)
					}
				}
				calls = append(calls, r)
			}
		}
	}
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || len(b.Succs) != 2 {
			continue
		}
		absentWhen, ok := c.absenceTest(ifInstr.Cond, tainted, single)
		if !ok {
			continue
		}
		absent := b.Succs[1]
		if absentWhen {
			absent = b.Succs[0]
		}
		if len(absent.Preds) != 1 {
			continue // the branch joins other paths
		}
		for _, d := range fn.Blocks {
			if !absent.Dominates(d) {
				continue
			}
			for _, instr := range d.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok && c.writes(call, maxActDepth, map[*ssa.Function]bool{}) {
					return instr
				}
			}
		}
	}
	if depth == 0 {
		return nil
	}
	for _, call := range calls {
		h, offset := ssax.Func(c.pkg, call.Common().Value)
		if h == nil || call.Common().IsInvoke() {
			continue
		}
		var params []ssa.Value
		for i, arg := range call.Common().Args {
			if p := i + offset; tainted[arg] && p < len(h.Params) {
				params = append(params, h.Params[p])
			}
		}
		if len(params) > 0 && c.actOn(h, params, single, depth-1) != nil {
			return call
		}
	}
	return nil
}

// isFill reports whether a method call adds its arguments to its
// receiver: a set's Insert (apimachinery's sets) or an Add.
func isFill(common *ssa.CallCommon) bool {
	fn, recv, _ := callee(common)
	return fn != nil && recv != nil && (fn.Name() == "Insert" || fn.Name() == "Add")
}

// absenceTest reports whether cond asks whether something read from the
// cache is there, and which value of cond means it is not: IsNotFound of
// a Get's error (true), a Get's error compared with nil (!= nil), a
// store's exists, a comma-ok lookup in a map built from a List, a set's
// Has or a Contains (false), len(list) == 0 (true). A negation flips it.
func (c *checker) absenceTest(cond ssa.Value, tainted map[ssa.Value]bool, single bool) (absentWhen, ok bool) {
	flip := false
	for {
		u, isNot := cond.(*ssa.UnOp)
		if !isNot || u.Op != token.NOT {
			break
		}
		flip = !flip
		cond = u.X
	}
	if !tainted[cond] {
		return false, false
	}
	switch x := cond.(type) {
	case *ssa.Call:
		fn, recv, args := callee(x.Common())
		if fn == nil {
			return false, false
		}
		switch fn.Name() {
		case "IsNotFound":
			return !flip, kube.IsFunc(fn, kube.APIErrorsPkg, "IsNotFound")
		case "Has", "HasAll", "HasAny", "Contains", "ContainsFunc":
			// The set or slice searched must hold what was read; a
			// read object looked up in some other set is there.
			if recv != nil {
				return flip, tainted[recv]
			}
			return flip, len(args) > 0 && tainted[args[0]]
		}
	case *ssa.Extract:
		if x.Index != 1 || !isBool(x.Type()) {
			return false, false
		}
		switch t := x.Tuple.(type) {
		case *ssa.Lookup:
			return flip, t.CommaOk && tainted[t.X]
		case *ssa.Call:
			_, isRead := c.cacheRead(t)
			return flip, isRead // the exists of GetByKey
		}
	case *ssa.BinOp:
		if single && isNilCompare(x) && types.Identical(otherThanNil(x).Type(), errorType) {
			return (x.Op == token.NEQ) != flip, true
		}
		if isLenZero(x) {
			return (x.Op == token.EQL || x.Op == token.LEQ) != flip, true
		}
	}
	return false, false
}

func isNilCompare(b *ssa.BinOp) bool {
	if b.Op != token.EQL && b.Op != token.NEQ {
		return false
	}
	k, ok := b.Y.(*ssa.Const)
	return ok && k.IsNil()
}

func otherThanNil(b *ssa.BinOp) ssa.Value { return b.X }

// isLenZero reports whether b is len(x) == 0 (or <= 0).
func isLenZero(b *ssa.BinOp) bool {
	if b.Op != token.EQL && b.Op != token.LEQ {
		return false
	}
	call, ok := b.X.(*ssa.Call)
	if !ok {
		return false
	}
	bi, ok := call.Common().Value.(*ssa.Builtin)
	if !ok || bi.Name() != "len" {
		return false
	}
	k, ok := b.Y.(*ssa.Const)
	return ok && k.Value != nil && k.Value.String() == "0"
}
