package listerbypass

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// caches is what the package keeps in informer caches.
type caches struct {
	// fields: object key -> struct fields holding a lister or informer of it.
	fields map[string][]*types.Var
	// factory: object keys the package asks an informer factory for.
	factory map[string]bool
	// dynamic: GVRs the package asks a dynamic informer factory for.
	dynamic map[string]bool
	// watched: object keys controller-runtime's cache keeps for the package
	// (builder For/Owns/Watches, source.Kind, GetInformer).
	watched map[string]bool
	// primary: object keys a builder's For names, the objects whose events
	// start a Reconcile.
	primary map[string]bool
	// apiReaders: fields holding a reader that bypasses controller-runtime's
	// cache (GetAPIReader, client.New).
	apiReaders map[*types.Var]bool
	// seen: object keys of every other lister or informer value of the
	// package (parameters, results such as knative's
	// podinformer.Get(ctx).Lister()): an informer of the resource exists in
	// the controller's process, kept or not.
	seen map[string]bool
	// controllerRuntime: the package can use controller-runtime's client,
	// whose cache is where its informers come from.
	controllerRuntime bool
	// held: memoised holds.
	held map[*types.TypeName]map[*types.Var]bool
}

func collectCaches(pkg *types.Package, funcs []*ssa.Function) *caches {
	c := &caches{
		fields:     make(map[string][]*types.Var),
		factory:    make(map[string]bool),
		dynamic:    make(map[string]bool),
		watched:    make(map[string]bool),
		primary:    make(map[string]bool),
		apiReaders: make(map[*types.Var]bool),
		seen:       make(map[string]bool),
		held:       make(map[*types.TypeName]map[*types.Var]bool),

		controllerRuntime: kube.LookupPackage(pkg, kube.CRClientPkg) != nil,
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if obj := kube.ObjectOf(f.Type()); obj != nil {
				k := kube.ObjectKey(obj)
				c.fields[k] = append(c.fields[k], f)
			}
			if kube.IsCRReaderField(f) {
				// Set in main from mgr.GetAPIReader() (cluster-api's
				// reconcilers): the package never sees the store.
				c.apiReaders[f] = true
			}
		}
	}
	for _, fn := range funcs {
		if ssax.InTest(fn) {
			// A test asks a factory for an informer to fill its store
			// (factory.Core().V1().PersistentVolumes().Informer().GetIndexer().Add(pv)):
			// that is the test's fixture, not a cache of the controller.
			continue
		}
		for _, p := range fn.Params {
			c.see(p.Type())
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c.scan(instr)
			}
		}
	}
	return c
}

func (c *caches) scan(instr ssa.Instruction) {
	if st, ok := instr.(*ssa.Store); ok {
		f := ssax.FieldOfAddr(st.Addr)
		switch {
		case f == nil:
		case kubessa.FromAPIReader(st.Val):
			c.apiReaders[f] = true
		case isSourceKindType(f):
			// &source.Kind{Type: &v1.Pod{}}, the watch of controller-runtime
			// before v0.15.
			if obj := objectArg(st.Val); obj != nil && kube.IsObjectType(obj) {
				c.watched[kube.ObjectKey(obj)] = true
			}
		}
		return
	}
	call, ok := instr.(*ssa.Call)
	if !ok {
		return
	}
	c.see(call.Type())
	if kube.IsInformer(call.Type()) {
		if obj := kube.ObjectOf(call.Type()); obj != nil {
			c.factory[kube.ObjectKey(obj)] = true // factory.Core().V1().Pods()
		}
	}
	common := call.Common()
	fn := ssax.Callee(common)
	if fn == nil {
		return
	}
	args := common.Args
	if !common.IsInvoke() && fn.Type().(*types.Signature).Recv() != nil && len(args) > 0 {
		args = args[1:] // drop the receiver of a static method call
	}
	switch {
	case fn.Name() == "ForResource" && fn.Pkg() != nil && fn.Pkg().Path() == kube.DynamicInformerPkg && len(args) == 1:
		if k := gvrKey(args[0]); k != "" {
			c.dynamic[k] = true
		}
	case kube.IsCachedWatch(fn):
		if kubessa.OnlyMetadata(args) {
			// For(&v1.Secret{}, builder.OnlyMetadata): the cache keeps
			// PartialObjectMetadata, and a typed read is not served by it.
			break
		}
		for _, arg := range args {
			if obj := objectArg(arg); obj != nil && kube.IsObjectType(obj) {
				c.watched[kube.ObjectKey(obj)] = true
				if fn.Name() == "For" {
					c.primary[kube.ObjectKey(obj)] = true
				}
			}
		}
	case (fn.Name() == "Get" || fn.Name() == "List") && fn.Pkg() != nil && fn.Pkg().Path() == kube.CRClientPkg:
		// controller-runtime's client: its cache starts an informer for
		// the type it is asked for (an API reader's reads count too, which
		// only makes the package quieter).
		i := 2 // Get(ctx, key, obj)
		if fn.Name() == "List" {
			i = 1 // List(ctx, list)
		}
		if i < len(args) {
			if obj := objectArg(args[i]); obj != nil {
				c.seen[kube.ObjectKey(obj)] = true
			}
		}
	}
}

// isSourceKindType reports whether f is the Type field of controller-runtime's
// source.Kind struct (before v0.15).
func isSourceKindType(f *types.Var) bool {
	return f.Name() == "Type" && f.Pkg() != nil && f.Pkg().Path() == kube.CRSourcePkg
}

// see records the resource of a lister or informer type.
func (c *caches) see(t types.Type) {
	if !kube.IsInformer(t) && !kube.IsLister(t) {
		return
	}
	if obj := kube.ObjectOf(t); obj != nil {
		c.seen[kube.ObjectKey(obj)] = true
	}
}

// informed reports whether an informer of a typed read's resource exists
// anywhere in the package, for any of its controllers: kept in a field,
// asked of a factory, handed in as a parameter (and kept only for its
// HasSynced), read through knative's injection listers, or watched by
// controller-runtime's cache.
func (c *caches) informed(r read) bool {
	return c.cached(r) || c.seen[r.key] || c.watched[r.key]
}

// objectArg returns the object type of an object passed as an interface
// (&corev1.Pod{} as client.Object, or the item type of a list), or nil.
func objectArg(v ssa.Value) types.Type {
	t := ssax.Boxed(v)
	if t == nil {
		return nil
	}
	if obj := kube.ListItem(t); obj != nil {
		t = obj // a *PodList passed to List
	}
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return nil
	}
	return t
}

// gvrKey names a GroupVersionResource value: a package variable by name,
// a literal of constants by group/version/resource. "" when unknown.
func gvrKey(v ssa.Value) string {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return ""
	}
	switch addr := load.X.(type) {
	case *ssa.Global:
		return "var " + addr.Pkg.Pkg.Path() + "." + addr.Name()
	case *ssa.Alloc:
		// schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
		fields := map[int]string{}
		for _, ref := range *addr.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			for _, r2 := range *fa.Referrers() {
				if st, ok := r2.(*ssa.Store); ok {
					if c, ok := st.Val.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
						fields[fa.Field] = constant.StringVal(c.Value)
					}
				}
			}
		}
		if len(fields) == 0 {
			return ""
		}
		return strings.Join([]string{fields[0], fields[1], fields[2]}, "/")
	}
	return ""
}

// holds returns the fields a value of the named type reaches: its own, and
// those of the package's structures it holds, embedded or not, by value or
// pointer (a controller that keeps its listers in a listers struct).
func (c *caches) holds(tn *types.TypeName) map[*types.Var]bool {
	if h, ok := c.held[tn]; ok {
		return h
	}
	h := make(map[*types.Var]bool)
	c.held[tn] = h
	seen := map[*types.TypeName]bool{tn: true}
	work := []*types.TypeName{tn}
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		st, ok := t.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			h[f] = true
			ft := f.Type()
			if p, ok := types.Unalias(ft).(*types.Pointer); ok {
				ft = p.Elem()
			}
			if n, ok := types.Unalias(ft).(*types.Named); ok && n.Obj().Pkg() == tn.Pkg() && !seen[n.Origin().Obj()] {
				seen[n.Origin().Obj()] = true
				work = append(work, n.Origin().Obj())
			}
		}
	}
	return h
}
