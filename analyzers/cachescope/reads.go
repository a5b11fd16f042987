package cachescope

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/internal/crash"
)

// maxDepth bounds how many calls of the package a client is followed back
// through, from a helper's parameter to the caller's argument.
const maxDepth = 4

// collect finds the package's cached reads of costly kinds, the kinds its
// watches keep typed informers of, and the fields it sets from a
// manager's client.
func (p *pkg) collect() {
	p.watched = make(map[string]bool)
	p.managerFields = make(map[string]bool)
	p.unfiltered = make(map[string]bool)
	p.callers = make(map[*ssa.Function][]*ssa.Call)
	p.params = make(map[*ssa.Parameter]map[string]bool)
	for _, fn := range p.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.Call:
					if callee := in.Call.StaticCallee(); callee != nil && callee.Pkg == fn.Pkg {
						p.callers[callee] = append(p.callers[callee], in)
					}
				case *ssa.Store:
					p.store(in)
				}
			}
		}
	}
	for _, c := range kubessa.Controllers(p.funcs) {
		for _, call := range c.UnknownCalls {
			if !untypedWatch(call) {
				p.unknownWatch = true
			}
		}
		for _, list := range [][]kubessa.Watch{c.For, c.Owns, c.Watches} {
			for _, w := range list {
				if metadataOnly(w.Call) {
					continue
				}
				p.watched[kube.ObjectKey(w.Object)] = true
				if !kube.IsCostlyToCache(w.Object) {
					continue
				}
				if m, _, _ := ssax.MethodCall(w.Call.Common()); m.Name() == "WatchesRawSource" {
					continue // the source's own predicates, at its source.Kind call
				}
				if by := watchSelects(c, w); by != 0 {
					p.filtered = append(p.filtered, filteredWatch{call: w.Call, object: w.Object, by: by})
				} else {
					p.unfiltered[kube.ObjectKey(w.Object)] = true
				}
			}
		}
	}
	for fn, call := range p.calls {
		func() {
			defer crash.At(p.pass.Fset, fn.Pos())
			p.call(call)
		}()
	}
}

// store records a field set from a manager's client, and the object of a
// source.Kind literal (&source.Kind{Type: &corev1.Pod{}}, before v0.15).
func (p *pkg) store(st *ssa.Store) {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	if f := ssax.FieldOfAddr(fa); f != nil && f.Name() == "Type" && f.Pkg() != nil && f.Pkg().Path() == kube.CRSourcePkg {
		p.watch(st.Val)
		return
	}
	if call, ok := flow.Origin(st.Val, flow.Same).(*ssa.Call); ok {
		if m, recv, _ := ssax.MethodCall(call.Common()); kube.IsManagerClient(m, recv) {
			if k := fieldKey(fa.X.Type(), fa.Field); k != "" {
				p.managerFields[k] = true
			}
		}
	}
}

// call records a cached read of a costly kind, or a watch outside a
// builder chain: source.Kind, a cache's GetInformer, a FieldIndexer's
// IndexField (whose index is read from the cache).
func (p *pkg) call(call *ssa.Call) {
	common := call.Common()
	fn := ssax.Callee(common)
	if kube.IsSourceKind(fn) && !common.IsInvoke() && len(common.Args) >= 2 {
		// source.Kind(cache, obj, handler, predicates...) since v0.18
		if obj := kubessa.ObjectArg(common.Args[1]); obj != nil && kube.IsCostlyToCache(obj) && len(common.Args) == 4 {
			if by := predicatesSelect(common.Args[3], 0); by != 0 {
				p.watched[kube.ObjectKey(obj)] = true
				p.filtered = append(p.filtered, filteredWatch{call: call, object: obj, by: by})
				return
			}
		}
		p.watch(common.Args[1])
		return
	}
	if pkgPath, fname := kubessa.AliasCallee(common); pkgPath == kube.ControllerUtilPkg && (fname == "CreateOrUpdate" || fname == "CreateOrPatch") && len(common.Args) >= 3 {
		// (ctx, client, obj, mutate): it Gets obj through the client first.
		p.read(call, fname, common.Args[1], common.Args[2])
		return
	}
	m, _, args := ssax.MethodCall(common)
	if m == nil {
		return
	}
	if (kube.IsCachedWatch(m) && m.Name() == "GetInformer" || kube.IsCacheIndex(m)) && len(args) >= 2 {
		p.watch(args[1])
		return
	}
	if i, ok := kube.IsCRClientRead(m); ok && i < len(args) {
		p.read(call, m.Name(), ssax.Receiver(common), args[i])
	}
}

// read records a read of the object obj through the client c, when obj
// is of a costly kind and where c comes from is known.
func (p *pkg) read(call *ssa.Call, method string, c, obj ssa.Value) {
	t := kubessa.ObjectArg(obj)
	if t == nil || !kube.IsCostlyToCache(t) {
		return // unstructured, metadata only, or a kind whose informer costs little
	}
	srcs := make(map[string]bool)
	p.sources(c, 0, srcs)
	if len(srcs) > 0 {
		p.reads = append(p.reads, read{call: call, method: method, object: t, sources: srcs})
	}
}

// watch records the kind of a watched object, or that a watch's kind is
// not known here.
func (p *pkg) watch(v ssa.Value) {
	obj := kubessa.ObjectArg(v)
	if obj == nil {
		p.unknownWatch = true
		return
	}
	if kube.IsUntypedObject(obj) {
		return // an informer of its own, which serves no typed read
	}
	p.watched[kube.ObjectKey(obj)] = true
	if kube.IsCostlyToCache(obj) {
		p.unfiltered[kube.ObjectKey(obj)] = true
	}
}

// untypedWatch reports whether a builder call watches an unstructured or
// metadata-only object, whose informer is not the one a typed read uses.
func untypedWatch(call *ssa.Call) bool {
	_, _, args := ssax.MethodCall(call.Common())
	if len(args) == 0 {
		return false
	}
	t := kubessa.ObjectArg(args[0])
	return t != nil && kube.IsUntypedObject(t)
}

// metadataOnly reports whether a builder call watches its kind's metadata
// only (WatchesMetadata, or the builder.OnlyMetadata option): the cache
// keeps PartialObjectMetadata, and a typed read of the kind starts an
// informer of its own.
func metadataOnly(call *ssa.Call) bool {
	m, _, args := ssax.MethodCall(call.Common())
	return m != nil && m.Name() == "WatchesMetadata" || kubessa.OnlyMetadata(args)
}

// sources adds to out where the client v comes from: the field keys it
// is loaded from, "" for a manager's GetClient(); through the package's
// calls of a helper that takes the client as a parameter.
func (p *pkg) sources(v ssa.Value, depth int, out map[string]bool) {
	if v == nil {
		return
	}
	origins, _ := flow.Origins(v, flow.Same|flow.Phis)
	for _, o := range origins {
		switch o := o.(type) {
		case *ssa.Call:
			if m, recv, _ := ssax.MethodCall(o.Common()); kube.IsManagerClient(m, recv) {
				out[""] = true
			}
		case *ssa.UnOp:
			if fa, ok := o.X.(*ssa.FieldAddr); ok {
				if k := fieldKey(fa.X.Type(), fa.Field); k != "" {
					out[k] = true
				}
			}
		case *ssa.Field:
			if k := fieldKey(o.X.Type(), o.Field); k != "" {
				out[k] = true
			}
		case *ssa.Parameter:
			if depth >= maxDepth {
				continue
			}
			for src := range p.paramSources(o, depth) {
				out[src] = true
			}
		}
	}
}

// paramSources returns where the client a parameter holds comes from, at
// the package's calls of its function; memoised.
func (p *pkg) paramSources(param *ssa.Parameter, depth int) map[string]bool {
	if srcs, ok := p.params[param]; ok {
		return srcs // nil while being computed: a recursive helper adds nothing
	}
	p.params[param] = nil
	srcs := make(map[string]bool)
	fn := param.Parent()
	for i, x := range fn.Params {
		if x != param {
			continue
		}
		for _, call := range p.callers[fn] {
			if i < len(call.Call.Args) {
				p.sources(call.Call.Args[i], depth+1, srcs)
			}
		}
	}
	p.params[param] = srcs
	return srcs
}

// fieldKey names field i of the named struct t (or *t) across packages:
// "example.com/op/controller.BackupReconciler.Client"; "" for an unnamed
// struct.
func fieldKey(t types.Type, i int) string {
	path, name := kube.PathName(t)
	if name == "" {
		return ""
	}
	st, ok := kube.Named(t).Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return ""
	}
	return path + "." + name + "." + st.Field(i).Name()
}
