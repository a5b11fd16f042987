package flow

import (
	"go/constant"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Variadic returns the values a variadic call's final argument holds, in
// order, when the call site lists them: for f(a, b) SSA stores a and b
// into a new array and hands f a slice of it; for f() it hands nil. ok is
// false for any other slice (f(s...) with s from elsewhere): what it
// holds is not known here.
//
// Loggers' key-value pairs, fmt's operands and a client's options all
// arrive this way, so an analyzer asking what a call was given asks here.
func Variadic(arg ssa.Value) (values []ssa.Value, ok bool) {
	if c, isConst := arg.(*ssa.Const); isConst && c.IsNil() {
		return nil, true
	}
	sl, isSlice := arg.(*ssa.Slice)
	if !isSlice || sl.Low != nil || sl.High != nil {
		return nil, false
	}
	arr, isAlloc := sl.X.(*ssa.Alloc)
	if !isAlloc {
		return nil, false
	}
	type element struct {
		index int64
		value ssa.Value
	}
	var elems []element
	for _, ref := range *arr.Referrers() {
		ia, isIndex := ref.(*ssa.IndexAddr)
		if !isIndex {
			continue
		}
		i, known := ia.Index.(*ssa.Const)
		if !known {
			return nil, false
		}
		index, _ := constant.Int64Val(i.Value)
		for _, r := range *ia.Referrers() {
			if st, isStore := r.(*ssa.Store); isStore && st.Addr == ia {
				elems = append(elems, element{index, st.Val})
			}
		}
	}
	slices.SortStableFunc(elems, func(x, y element) int { return int(x.index - y.index) })
	for _, e := range elems {
		values = append(values, e.value)
	}
	return values, true
}
