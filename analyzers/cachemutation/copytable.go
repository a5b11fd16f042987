package cachemutation

import (
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
)

// copyTable reports whether m is a map made in the unit into which the
// code stores copies it made with DeepCopy, beside (under the same keys)
// the cached objects they were made of: the "copy and mark
// for update" table of kubernetes' EndpointSlice reconciler
// (reconcileByPortMapping since v1.17: slicesByName[s.Name] = s, then
// epSlice := s.DeepCopy(); slicesByName[s.Name] = epSlice, and the
// names marked for update are the ones written later). Which key holds
// which is not in the types, so what is loaded from such a table is not
// taken for cached: a write through it may be to a copy, and a report
// there could not be trusted.
func (f *unit) copyTable(m ssa.Value) bool {
	if v, ok := f.tables[m]; ok {
		return v
	}
	copies := false
	if _, ok := m.(*ssa.MakeMap); ok {
		for _, r := range *m.Referrers() {
			if u, ok := r.(*ssa.MapUpdate); ok && u.Map == m && isDeepCopy(u.Value) {
				copies = true
			}
		}
	}
	f.tables[m] = copies
	return copies
}

// isDeepCopy reports whether v is the result of a DeepCopy call (a
// typed copy; DeepCopyObject's would need an assertion to be stored).
func isDeepCopy(v ssa.Value) bool {
	call, ok := flow.Origin(v, flow.Conversions).(*ssa.Call)
	if !ok {
		return false
	}
	_, ok = kubessa.DeepCopyOf(call)
	return ok && call.Common().StaticCallee() != nil && call.Common().StaticCallee().Name() == "DeepCopy"
}
