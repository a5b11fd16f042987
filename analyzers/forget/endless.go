package forget

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// An endless retry: a worker re-queues its key with AddRateLimited on
// every error, never asks NumRequeues when to give up, and its sync
// returns the NotFound error of the read of the very object the key names.
// Once that object is deleted, the key fails the same way forever: it is
// re-queued at the limiter's maximum backoff for the life of the process
// and its limiter entry is never released.
type endless struct {
	requeue *ssa.Call     // the worker's AddRateLimited of the key
	read    *ssa.Call     // the read of the object the key names
	sync    *ssa.Function // the function holding the read
}

// maxHops bounds how far the key is followed into helpers.
const maxHops = 4

// A hop is a function the key (or a name split from it) reaches, and the
// call that reached it.
type hop struct {
	fn      *ssa.Function
	derived map[ssa.Value]bool // values holding the key or a part of it
	call    ssa.CallInstruction
	parent  *hop
	depth   int
}

// endlessRetry looks for the shape in the functions it's key reaches.
func endlessRetry(a *keyflow.Analysis, pkg *ssa.Package, stored map[*types.Var][]ssa.Value, it *keyflow.Item) *endless {
	if a.Reaches(it, "NumRequeues") {
		return nil // a retry limit: the worker gives up at some point
	}
	root := &hop{fn: it.Fn, derived: derive(keyflow.Equivalent(it.Key))}
	hops := []*hop{root}
	seen := map[*ssa.Function]bool{it.Fn: true}
	var requeue *ssa.Call
	var read *ssa.Call
	var readHop *hop
	for i := 0; i < len(hops); i++ {
		h := hops[i]
		for _, b := range h.fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				common := call.Common()
				if _, method, args, ok := keyflow.QueueOp(common); ok {
					if method == "AddRateLimited" && len(args) > 0 && h.derived[args[0]] && requeue == nil {
						requeue = call
					}
					continue
				}
				if read == nil && h != root && isObjectRead(common, h.derived) {
					read, readHop = call, h
					continue
				}
				if h.depth >= maxHops {
					continue
				}
				for _, callee := range callees(pkg, stored, common) {
					if seen[callee.fn] {
						continue
					}
					var seeds []ssa.Value
					for i, arg := range common.Args {
						if h.derived[arg] && i+callee.offset < len(callee.fn.Params) {
							seeds = append(seeds, callee.fn.Params[i+callee.offset])
						}
					}
					if len(seeds) == 0 {
						continue
					}
					seen[callee.fn] = true
					hops = append(hops, &hop{fn: callee.fn, derived: derive(keyflow.Equivalent(seeds...)), call: call, parent: h, depth: h.depth + 1})
				}
			}
		}
	}
	if requeue == nil || read == nil {
		return nil
	}
	// The read's error has to come back to the worker unexamined: returned
	// by the function holding the read and by every caller up to the one
	// that re-queues, and never asked whether it is a NotFound on the way.
	errv := errorResult(read)
	for h := readHop; ; h = h.parent {
		if errv == nil || examined(errv, 0) {
			return nil // the sync or the worker treats some errors apart
		}
		if h == root || h.fn == requeue.Parent() {
			break
		}
		if !returned(h.fn, errv) {
			return nil
		}
		errv = errorResult(h.call.(*ssa.Call))
	}
	return &endless{requeue: requeue, read: read, sync: readHop.fn}
}

type callee struct {
	fn     *ssa.Function
	offset int
}

// callees resolves the package functions a call may run: a function, a
// closure, a method value, or a func-typed field the package stores its
// sync in (kubernetes' dc.syncHandler = dc.syncDeployment).
func callees(pkg *ssa.Package, stored map[*types.Var][]ssa.Value, common *ssa.CallCommon) []callee {
	if common.IsInvoke() {
		return nil
	}
	if fn, off := ssax.Func(pkg, common.Value); fn != nil {
		return []callee{{fn, off}}
	}
	field := ssax.LoadedField(common.Value)
	if field == nil {
		return nil
	}
	var out []callee
	for _, v := range stored[field] {
		if fn, off := ssax.Func(pkg, v); fn != nil {
			out = append(out, callee{fn, off})
		}
	}
	return out
}

// derive adds to a key's values the parts split from it: the namespace and
// name cache.SplitMetaNamespaceKey returns, the fields of a
// cache.ObjectName key.
func derive(keys map[ssa.Value]bool) map[ssa.Value]bool {
	out := make(map[ssa.Value]bool, len(keys))
	var work []ssa.Value
	add := func(v ssa.Value) {
		if !out[v] {
			out[v] = true
			work = append(work, v)
		}
	}
	for k := range keys {
		add(k)
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		// objRef.Name, &objRef.Name's loads; a captured or addressed key's
		// loads.
		p := flow.Conversions | flow.Phis | flow.Fields
		if _, ok := v.(*ssa.Alloc); ok {
			p |= flow.Loads
		}
		for _, s := range flow.Succs(v, p) {
			if fa, ok := s.(*ssa.FieldAddr); ok {
				for _, l := range flow.Succs(fa, flow.Loads) {
					add(l)
				}
				continue
			}
			add(s)
		}
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			switch r := ref.(type) {
			case *ssa.Call:
				if kube.IsKeyParser(ssax.Callee(r.Common())) {
					for _, e := range flow.Succs(r, flow.Extracts) {
						if e.(*ssa.Extract).Index < 2 {
							add(e)
						}
					}
				}
			case *ssa.Store:
				if cell, ok := r.Addr.(*ssa.Alloc); ok && r.Val == v {
					add(cell) // its loads, and its fields'
				}
			}
		}
	}
	return out
}

// isObjectRead reports whether a call reads an object by a name split from
// the key: a lister's Get(name), a typed client's Get([ctx, ]name, opts).
func isObjectRead(common *ssa.CallCommon, derived map[ssa.Value]bool) bool {
	fn := ssax.Callee(common)
	if fn == nil || fn.Name() != "Get" {
		return false
	}
	var recv types.Type
	args := common.Args
	if common.IsInvoke() {
		recv = common.Value.Type()
	} else if sig := fn.Type().(*types.Signature); sig.Recv() != nil && len(args) > 0 {
		recv, args = sig.Recv().Type(), args[1:]
	} else {
		return false
	}
	switch {
	case kube.IsLister(recv) && len(args) == 1:
		return derived[args[0]]
	case kube.IsTypedResourceClient(recv):
		if args = kube.TypedArgs(fn, args); len(args) == 2 {
			return derived[args[0]]
		}
	}
	return false
}

// errorResult is the error a call returns last, or nil.
func errorResult(call *ssa.Call) ssa.Value {
	res := call.Call.Signature().Results()
	if res.Len() == 0 || !isError(res.At(res.Len()-1).Type()) {
		return nil
	}
	if res.Len() == 1 {
		return call
	}
	for _, x := range flow.Succs(call, flow.Extracts) {
		if x.(*ssa.Extract).Index == res.Len()-1 {
			return x
		}
	}
	return nil
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// returned reports whether fn returns err, or err wrapped.
func returned(fn *ssa.Function, err ssa.Value) bool {
	for v := range errFlow(err) {
		for _, ref := range *v.Referrers() {
			if ret, ok := ref.(*ssa.Return); ok && ret.Parent() == fn {
				return true
			}
		}
	}
	return false
}

// errFlow is err and the values that carry it on: its conversions and
// phis, and the errors that wrap it (fmt.Errorf's %w, github.com/pkg/errors'
// Wrap).
func errFlow(err ssa.Value) map[ssa.Value]bool {
	carried := map[ssa.Value]bool{}
	for work := []ssa.Value{err}; len(work) > 0; {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if !carried[v] {
			carried[v] = true
			work = append(append(work, flow.Succs(v, flow.Conversions|flow.Phis)...), wrappers(v)...)
		}
	}
	return carried
}

// wrappers returns the calls that wrap err: handed to them, or to
// fmt.Errorf("...: %w", err) in its variadic slice.
func wrappers(err ssa.Value) []ssa.Value {
	handed := []ssa.Value{err}
	for _, ref := range *err.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Val == err {
			if arr := ssax.LocalRoot(st.Addr); arr != nil {
				handed = append(handed, flow.Succs(arr, flow.Elements)...)
			}
		}
	}
	var out []ssa.Value
	for _, h := range handed {
		for _, ref := range *h.Referrers() {
			if call, ok := ref.(*ssa.Call); ok && isWrap(ssax.Callee(call.Common())) {
				out = append(out, call)
			}
		}
	}
	return out
}

// isWrap recognises the functions that wrap an error into another.
func isWrap(fn *types.Func) bool {
	switch {
	case kube.IsFunc(fn, "fmt", "Errorf"):
		return true
	case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == kube.PkgErrorsPkg:
		return strings.HasPrefix(fn.Name(), "Wrap") || strings.HasPrefix(fn.Name(), "With")
	}
	return false
}

// examined reports whether an error, or an error carrying it, is looked
// into: handed to apimachinery's errors package (IsNotFound and friends),
// errors.Is or As, a NotFound helper of any package, a package helper that
// may do so, or a type switch.
func examined(err ssa.Value, depth int) bool {
	for v := range errFlow(err) {
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case *ssa.TypeAssert:
				return true
			case ssa.CallInstruction:
				common := r.Common()
				if common.IsInvoke() {
					if common.Value == v && common.Method.Name() == "Error" {
						continue // its message, for a log or a new error
					}
					return true // an interface method: anything
				}
				fn := ssax.Callee(common)
				if fn == nil {
					return true // a func value: anything
				}
				if examines(fn) {
					return true
				}
				if isWrap(fn) || fn.Pkg() == nil {
					continue
				}
				if callee, off := ssax.Func(r.Parent().Pkg, common.Value); callee != nil {
					if depth >= maxHops {
						return true
					}
					for i, arg := range common.Args {
						if arg == v && i+off < len(callee.Params) && examined(callee.Params[i+off], depth+1) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// examines recognises library functions that tell errors apart.
func examines(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch path := fn.Pkg().Path(); {
	case path == kube.APIErrorsPkg:
		return true
	case path == "errors" || path == kube.PkgErrorsPkg:
		return fn.Name() == "Is" || fn.Name() == "As" || fn.Name() == "Cause"
	}
	return strings.Contains(fn.Name(), "NotFound")
}
