package requeueerr

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// resolve sees through a load of a local variable that SSA keeps in memory
// because a closure captures it (`defer func() { updateStatus(obj, err)
// }()`) to the value stored into it on every path to the load. Other
// values, and loads with several reaching stores, are themselves.
func resolve(v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok || !storedOnlyHere(alloc) {
		return v
	}
	if s := reaching(alloc, load); s != nil {
		return s
	}
	return v
}

// storedOnlyHere reports whether every write to a local variable before
// its function returns is a store in the function: its address does not
// escape, and the closures that capture it only read it or are only
// deferred (they run after the return values are taken).
func storedOnlyHere(alloc *ssa.Alloc) bool {
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc {
				return false
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			if onlyDeferred(ref) {
				continue
			}
			fn := ref.Fn.(*ssa.Function)
			for i, b := range ref.Bindings {
				if b != alloc {
					continue
				}
				for _, use := range *fn.FreeVars[i].Referrers() {
					switch use.(type) {
					case *ssa.UnOp, *ssa.DebugRef:
					default:
						return false // written, or passed on
					}
				}
			}
		default:
			return false
		}
	}
	return true
}

// reaching returns the value of the one store that reaches a load of
// alloc on every path, or nil.
func reaching(alloc *ssa.Alloc, load ssa.Instruction) ssa.Value {
	var found ssa.Value
	conflict := false
	visited := make(map[*ssa.BasicBlock]bool)
	var walk func(b *ssa.BasicBlock, end int)
	walk = func(b *ssa.BasicBlock, end int) {
		for i := end - 1; i >= 0 && !conflict; i-- {
			switch instr := b.Instrs[i].(type) {
			case *ssa.Store:
				if instr.Addr != alloc {
					continue
				}
				if found != nil && found != instr.Val {
					conflict = true
				}
				found = instr.Val
				return
			case *ssa.Alloc:
				if instr == alloc {
					conflict = true // the zero value on this path
					return
				}
			}
		}
		if conflict || visited[b] {
			return
		}
		visited[b] = true
		if len(b.Preds) == 0 {
			conflict = true
			return
		}
		for _, p := range b.Preds {
			walk(p, len(p.Instrs))
		}
	}
	walk(load.Block(), indexOf(load.Block().Instrs, load))
	if conflict {
		return nil
	}
	return found
}
