package cachemutation

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A heldPath is a part of a local allocation (a struct's field, at any
// depth) that a cached reference was stored into: &ctx{pod: pod} taints
// ctx.pod, not ctx.count.
type heldPath struct {
	path []int // field indexes; -1 for any array element
	t    taint
}

// localRoot returns the allocation an address points into and the path of
// fields to it, or nil. An element of a slice has the slice value for
// root: the slice carries its backing array.
func localRoot(addr ssa.Value) (ssa.Value, []int) {
	var rev []int
	for {
		switch a := addr.(type) {
		case *ssa.Alloc:
			slices.Reverse(rev)
			return a, rev
		case *ssa.IndexAddr:
			if _, ok := a.X.Type().Underlying().(*types.Slice); ok {
				return a.X, nil
			}
			rev = append(rev, -1)
			addr = a.X
		case *ssa.FieldAddr:
			rev = append(rev, a.Field)
			addr = a.X
		default:
			return nil, nil
		}
	}
}

// heldAt is what a load from addr finds of the cached references stored
// into parts of a local allocation: those stored at addr or inside it, or
// into a part that contains addr.
func (f *unit) heldAt(addr ssa.Value) taint {
	root, path := localRoot(addr)
	if root == nil || len(path) == 0 {
		return taint{}
	}
	var t taint
	for _, h := range f.held[root] {
		if prefix(h.path, path) || prefix(path, h.path) {
			t = t.join(h.t)
		}
	}
	return t
}

// prefix reports whether p is a prefix of q; -1 matches any index.
func prefix(p, q []int) bool {
	if len(p) > len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] && p[i] != -1 && q[i] != -1 {
			return false
		}
	}
	return true
}

// store handles *addr = val: a write to cached memory, or cached
// references kept in local memory.
func (f *unit) store(st *ssa.Store) bool {
	if t := f.taintOf(st.Addr); t.b&shared != 0 {
		return f.addSink(st, st.Pos(), t.src)
	}
	if f.cellOf(st.Addr) != nil {
		return false // resolved at the loads
	}
	val := f.taintOf(st.Val)
	if val.b == 0 {
		return false
	}
	root, path := localRoot(st.Addr)
	switch {
	case root == nil:
		return false
	case len(path) == 0:
		return f.set(root, holdsIf(val)) // the whole variable, or a slice's elements
	}
	for i, h := range f.held[root] {
		if slices.Equal(h.path, path) {
			n := h.t.join(val)
			f.held[root][i].t = n
			return n != h.t
		}
	}
	f.held[root] = append(f.held[root], heldPath{path, val})
	return true
}
