package cachesync

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// fieldUse is what the package does with a field of one of its structs
// that holds an informer or an InformerSynced.
type fieldUse struct {
	assigned bool // stored to (a constructor sets it)
	loaded   bool // read anywhere
	synced   bool // an informer whose HasSynced is taken somewhere
	read     bool // an informer read otherwise (its store, its lister)
	// stores are the values stored into the field: for an InformerSynced
	// field they say which informer it checks, for the others whether
	// they keep that informer's cache (its Lister, its store).
	stores []ssa.Value
}

// checkPartialWaits reports a cache.WaitForCacheSync (or
// WaitForNamedCacheSync) in a method of a controller that waits for some
// of the controller's informers and leaves out others that the
// controller sets up: an InformerSynced field that is set and never read
// (kubernetes' EndpointSlice controller before v1.17.12 and v1.18.9 set
// nodesSynced and endpointSlicesSynced and waited only for pods and
// services), or an informer field that is read and whose HasSynced is
// never taken (kubevirt's evacuation controller before v1.2.0 read
// nodeInformer's store). The workers that start after the wait read those
// caches while they are still filling.
func (c *checker) checkPartialWaits() {
	uses := make(map[*types.Var]*fieldUse)
	use := func(f *types.Var) *fieldUse {
		if uses[f] == nil {
			uses[f] = &fieldUse{}
		}
		return uses[f]
	}
	var waits []*ssa.Call
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.FieldAddr:
					f := ssax.FieldOfAddr(in)
					if f == nil || f.Pkg() != c.pkg.Pkg {
						continue
					}
					u := use(f)
					for _, r := range *in.Referrers() {
						switch r := r.(type) {
						case *ssa.Store:
							if r.Addr == in {
								u.assigned = true
								u.stores = append(u.stores, r.Val)
							}
						case *ssa.UnOp:
							u.loaded = true
							if kube.IsInformer(f.Type()) {
								if takesHasSynced(r, 0) {
									u.synced = true
								} else {
									u.read = true
								}
							}
						default:
							u.loaded = true // its address handed on: anything may read it
							u.synced = true
						}
					}
				case *ssa.Call:
					fnc, recv, _ := callee(in.Common())
					if !kube.WaitsForCacheSync(fnc, recvType(recv)) {
						continue
					}
					if recv != nil {
						return // a factory's or a cache's wait covers informers no field names
					}
					waits = append(waits, in)
				}
			}
		}
	}
	for _, w := range waits {
		c.checkPartialWait(w, uses)
	}
}

// checkPartialWait reports the fields of the waiting method's struct that
// the wait leaves out.
func (c *checker) checkPartialWait(w *ssa.Call, uses map[*types.Var]*fieldUse) {
	fn := w.Parent()
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	st := recvStruct(fn)
	if st == nil {
		return
	}
	args := w.Call.Args
	if len(args) == 0 {
		return
	}
	checks, ok := flow.Variadic(args[len(args)-1])
	if !ok || len(checks) == 0 {
		return
	}
	var waited []string
	for _, v := range checks {
		f := waitedField(v)
		if f == nil || !hasField(st, f) {
			return // a check of something else: the wait's scope is not the struct's
		}
		waited = append(waited, f.Name())
	}
	// A type that keeps InformerSynced fields checks its informers through
	// them (c.ctbListerSynced = ctbInformer.HasSynced beside c.ctbInformer);
	// its informer fields are not judged on their own.
	keepsSynced := false
	for i := range st.NumFields() {
		keepsSynced = keepsSynced || isSyncCheck(st.Field(i).Type())
	}
	var missing []string
	for i := range st.NumFields() {
		f := st.Field(i)
		u := uses[f]
		if u == nil || !u.assigned {
			continue
		}
		if isSyncCheck(f.Type()) && !u.loaded && keepsCacheRead(st, f, uses) || !keepsSynced && kube.IsInformer(f.Type()) && u.read && !u.synced {
			missing = append(missing, f.Name())
		}
	}
	if len(missing) == 0 {
		return
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: w.Pos(),
		Message: fmt.Sprintf("this cache-sync wait covers %s but not %s, which the controller also sets up: the workers started after it read those caches while they are still filling, so objects that exist look deleted; add them to the wait",
			strings.Join(waited, ", "), strings.Join(missing, ", ")),
	})
}

// waitedField is the field a sync check handed to a wait comes from:
// c.podsSynced, c.podInformer.HasSynced, c.pods.Informer().HasSynced.
func waitedField(v ssa.Value) *types.Var {
	if f := ssax.LoadedField(flow.Origin(v, flow.Conversions)); f != nil {
		return f
	}
	if informer := syncedInformer(v); informer != nil {
		return ssax.LoadedField(informer)
	}
	return nil
}

// takesHasSynced reports whether an informer loaded from a field has its
// HasSynced called or taken as a value, directly or on its Informer().
func takesHasSynced(v ssa.Value, depth int) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.ChangeInterface, *ssa.MakeInterface:
			if takesHasSynced(r.(ssa.Value), depth) {
				return true
			}
		case *ssa.MakeClosure:
			if m, ok := r.Fn.(*ssa.Function); ok && strings.HasPrefix(m.Name(), "HasSynced") {
				return true
			}
		case *ssa.Call:
			if fn, recv, _ := callee(r.Common()); recv == v && fn != nil {
				switch {
				case isHasSynced(fn):
					return true
				case fn.Name() == "Informer" && depth == 0 && takesHasSynced(r, 1):
					return true
				}
			}
		}
	}
	return false
}

// keepsCacheRead reports whether the informer an unread InformerSynced
// field checks also fills a field of the same struct that the package
// reads (c.nodeLister = nodes.Lister() beside c.nodesSynced =
// nodes.Informer().HasSynced): the workers read that cache. A synced
// field whose informer only feeds event handlers (kubernetes'
// rootcacertpublisher keeps nsListerSynced and no namespace lister) guards
// no read.
func keepsCacheRead(st *types.Struct, synced *types.Var, uses map[*types.Var]*fieldUse) bool {
	for _, sv := range uses[synced].stores {
		src := syncedInformer(sv)
		if src == nil {
			continue
		}
		for i := range st.NumFields() {
			g := st.Field(i)
			u := uses[g]
			if g == synced || u == nil || !u.loaded {
				continue
			}
			for _, gv := range u.stores {
				if derivesFrom(gv, src) {
					return true
				}
			}
		}
	}
	return false
}

// syncedInformer is the informer whose HasSynced a stored sync check is
// bound to (nodes in nodes.Informer().HasSynced), or nil.
func syncedInformer(v ssa.Value) ssa.Value {
	mc, ok := flow.Origin(v, flow.Conversions).(*ssa.MakeClosure)
	if !ok || len(mc.Bindings) != 1 {
		return nil
	}
	if m, ok := mc.Fn.(*ssa.Function); !ok || !strings.HasPrefix(m.Name(), "HasSynced") {
		return nil
	}
	return informerBase(mc.Bindings[0])
}

// informerBase follows an informer value back through Informer() calls
// and conversions to where it comes from (a parameter, a field).
func informerBase(v ssa.Value) ssa.Value {
	for range 4 {
		v = flow.Origin(v, flow.Conversions)
		call, ok := v.(*ssa.Call)
		if !ok || !call.Call.IsInvoke() || call.Call.Method.Name() != "Informer" {
			return v
		}
		v = call.Call.Value
	}
	return v
}

// derivesFrom reports whether v is src's cache: src.Lister(),
// src.Informer().GetIndexer(), src.Informer().GetStore(), src itself.
func derivesFrom(v, src ssa.Value) bool {
	for range 4 {
		v = flow.Origin(v, flow.Conversions)
		if v == src {
			return true
		}
		call, ok := v.(*ssa.Call)
		if !ok || !call.Call.IsInvoke() {
			return false
		}
		switch call.Call.Method.Name() {
		case "Lister", "Informer", "GetIndexer", "GetStore":
			v = call.Call.Value
		default:
			return false
		}
	}
	return false
}

// recvStruct is the struct a method's pointer receiver points to.
func recvStruct(fn *ssa.Function) *types.Struct {
	if fn.Signature.Recv() == nil {
		return nil
	}
	t := fn.Signature.Recv().Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, _ := t.Underlying().(*types.Struct)
	return st
}

func hasField(st *types.Struct, f *types.Var) bool {
	for i := range st.NumFields() {
		if st.Field(i) == f {
			return true
		}
	}
	return false
}
