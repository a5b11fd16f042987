package cachesync

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// maxRequestDepth bounds how deep into package calls made after a Start
// the analyzer looks for informer requests (NewController -> newInformers).
const maxRequestDepth = 3

// A request is where an informer is asked of a factory.
type request struct {
	at   ssa.Instruction // the Informer/Lister/InformerFor/ForResource call, or the call handing a handle over
	fn   *ssa.Function   // the function at is in
	what string          // "the Pod informer"
	res  string          // the resource, to match other requests of it ("" when unknown)
	// handover is true for a handle passed to another package's function.
	handover bool
	// key is the factory asked, as seen in fn (see factoryKey).
	key any
}

// checkFactories reports informers requested from a factory after its
// Start, in the function that starts it or in the package functions it
// calls afterwards with the factory (or a handle from it), unless Start is
// called again after the request or the package asks for the same informer
// elsewhere (where it may have been created before Start).
func (c *checker) checkFactories() {
	var all []request
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if r, ok := c.directRequest(instr, nil); ok {
					all = append(all, r)
				} else if r, ok := handle(instr); ok {
					all = append(all, r)
				}
			}
		}
	}
	if len(all) == 0 {
		return
	}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if f, recv, _ := callee(call.Common()); kube.IsFactoryStart(f, recvType(recv)) {
					c.checkStart(fn, instr, factoryKey(recv), all)
				}
			}
		}
	}
}

// checkStart reports the requests from the factory key after the Start at
// instr.
func (c *checker) checkStart(fn *ssa.Function, startAt ssa.Instruction, key any, all []request) {
	after := reachableAfter(startAt)
	type found struct {
		via ssa.Instruction // the instruction of fn after Start
		req request
	}
	var finds []found
	reached := make(map[*ssa.Function]bool)
	for _, instr := range after.order {
		if r, ok := c.directRequest(instr, key); ok {
			finds = append(finds, found{instr, r})
			continue
		}
		call, ok := instr.(ssa.CallInstruction)
		if !ok {
			continue
		}
		if _, isDefer := instr.(*ssa.Defer); isDefer {
			continue
		}
		for _, r := range c.callRequests(call, key, maxRequestDepth, reached) {
			finds = append(finds, found{instr, r})
		}
		if r, ok := c.handOver(call, key); ok {
			finds = append(finds, found{instr, r})
		}
	}
	reported := make(map[ssa.Instruction]bool)
	for _, f := range finds {
		if reported[f.via] || c.restarted(f.via, key) || c.runs(f.req.at) {
			continue
		}
		if c.requestedElsewhere(f.req, all, fn, key, after.set, reached) {
			continue
		}
		reported[f.via] = true
		startLine := c.line(startAt)
		factory := factoryName(key)
		var msg string
		switch {
		case f.req.handover:
			msg = fmt.Sprintf("%s handle is passed to %s after the Start of %s (line %d)", f.req.what, c.calledName(f.via), factory, startLine)
		case f.via == f.req.at:
			msg = fmt.Sprintf("%s is requested from %s after its Start (line %d)", f.req.what, factory, startLine)
		default:
			msg = fmt.Sprintf("%s requests %s from %s (line %d) after its Start (line %d)", c.calledName(f.via), f.req.what, factory, c.line(f.req.at), startLine)
		}
		c.pass.Report(analysis.Diagnostic{Pos: f.via.Pos(), Message: msg +
			": Start runs only the informers requested before it, so this one never runs, its cache stays empty and its HasSynced never turns true; request every informer before Start, or call Start again after this"})
	}
}

// calledName names the function a call instruction calls.
func (c *checker) calledName(instr ssa.Instruction) string {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return "this call"
	}
	if h := c.local(call.Common().Value); h != nil {
		return label(h)
	}
	if fn := ssax.Callee(call.Common()); fn != nil {
		return fn.Name()
	}
	return "this call"
}

// directRequest recognises an informer request: a call of a factory's
// InformerFor or ForResource, or of a per-resource informer's Informer,
// TypedInformer or Lister. With a key, only requests of that factory.
func (c *checker) directRequest(instr ssa.Instruction, key any) (request, bool) {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return request{}, false
	}
	fn, recv, args := callee(call.Common())
	if recv == nil || !kube.IsInformerRequest(fn, recv.Type()) {
		return request{}, false
	}
	if key != nil && !derived(recv, key) {
		return request{}, false
	}
	r := request{at: instr, fn: instr.Parent(), key: chainKey(recv)}
	switch fn.Name() {
	case "InformerFor":
		if len(args) > 0 {
			if t := dynType(args[0]); t != nil {
				r.res = kube.ObjectKey(t)
				r.what = "the " + kube.Kind(t) + " informer"
			}
		}
		if r.what == "" {
			r.what = "an informer (InformerFor)"
		}
	case "ForResource":
		r.what = "an informer (ForResource)"
		if len(args) > 0 {
			r.res = gvrName(args[0])
		}
		if r.res != "" {
			r.what = "the " + r.res + " informer"
		}
	default:
		obj := kube.ObjectOf(recv.Type())
		if obj == nil {
			r.what = "an informer (" + fn.Name() + ")"
			break
		}
		r.res = kube.ObjectKey(obj)
		r.what = "the " + kube.Kind(obj) + " informer"
	}
	return r, true
}

// callRequests returns the requests of the factory key that a package
// function called (or launched) at call makes: on a parameter it is given
// the factory or a handle from it in, or, when the factory is a struct
// field, on that field.
func (c *checker) callRequests(call ssa.CallInstruction, key any, depth int, reached map[*ssa.Function]bool) []request {
	if depth == 0 {
		return nil
	}
	common := call.Common()
	h, offset := ssax.Func(c.pkg, common.Value)
	if h == nil || common.IsInvoke() {
		return nil
	}
	var keys []any
	for i, arg := range common.Args {
		if p := i + offset; p < len(h.Params) && derived(arg, key) {
			keys = append(keys, h.Params[p])
		}
	}
	if f, ok := key.(*types.Var); ok {
		keys = append(keys, f)
	}
	if len(keys) == 0 {
		return nil
	}
	reached[h] = true
	var out []request
	for _, b := range h.Blocks {
		for _, instr := range b.Instrs {
			for _, k := range keys {
				if r, ok := c.directRequest(instr, k); ok && !c.restarted(instr, k) {
					out = append(out, r)
				}
				if inner, ok := instr.(ssa.CallInstruction); ok {
					if _, isDefer := instr.(*ssa.Defer); !isDefer {
						out = append(out, c.callRequests(inner, k, depth-1, reached)...)
					}
				}
			}
		}
	}
	return out
}

// handOver recognises a per-resource informer handle from the factory
// passed to a function of another package after Start
// (NewController(factory.Apps().V1().Deployments())): the handle is only
// good for asking for the informer, so the callee asks now.
func (c *checker) handOver(call ssa.CallInstruction, key any) (request, bool) {
	common := call.Common()
	if c.local(common.Value) != nil {
		return request{}, false
	}
	fn, recv, args := callee(common)
	if fn == nil || (recv != nil && kube.IsInformerRequest(fn, recv.Type())) {
		return request{}, false
	}
	for _, arg := range args {
		v := unconvert(arg)
		if !kube.IsResourceInformer(v.Type()) || !derived(v, key) {
			continue
		}
		obj := kube.ObjectOf(v.Type())
		if obj == nil {
			continue
		}
		return request{at: call, fn: call.Parent(), what: "the " + kube.Kind(obj) + " informer", res: kube.ObjectKey(obj), handover: true}, true
	}
	return request{}, false
}

// restarted reports whether a Start of the same factory can follow instr
// in its function.
func (c *checker) restarted(instr ssa.Instruction, key any) bool {
	for _, later := range reachableAfter(instr).order {
		call, ok := later.(ssa.CallInstruction)
		if !ok {
			continue
		}
		if fn, recv, _ := callee(call.Common()); kube.IsFactoryStart(fn, recvType(recv)) && sameFactory(recv, key) {
			return true
		}
	}
	return false
}

// requestedElsewhere reports whether the package asks for the same informer
// of the same factory somewhere else than after this Start (in fn before
// it, in a function fn calls before it, or, for a factory fn is given or
// keeps in a field, anywhere in the package): there it may have been
// created before Start, and this request only returns it. Obtaining the
// per-resource handle counts as asking (it is handed to a constructor).
func (c *checker) requestedElsewhere(r request, all []request, fn *ssa.Function, key any, after map[ssa.Instruction]bool, reached map[*ssa.Function]bool) bool {
	var before map[*ssa.Function]bool
	for _, o := range all {
		if o.at == r.at || after[o.at] || reached[o.fn] {
			continue
		}
		if r.res != "" && o.res != "" && o.res != r.res {
			continue
		}
		switch {
		case o.fn == fn:
			if o.key != key {
				continue
			}
		case isLocal(key):
			if before == nil {
				before = c.calledBefore(fn, after)
			}
			if !before[o.fn] {
				continue // another function cannot see fn's own factory
			}
		}
		return true
	}
	return false
}

// isLocal reports whether a factory key is a value of the function itself
// (made there), not a parameter, a field or a package variable.
func isLocal(key any) bool {
	switch key.(type) {
	case *types.Var, *ssa.Parameter, *ssa.Global, *ssa.FreeVar:
		return false
	}
	return true
}

// calledBefore returns the package functions fn calls, directly or a few
// calls deep, at instructions that do not follow the Start.
func (c *checker) calledBefore(fn *ssa.Function, after map[ssa.Instruction]bool) map[*ssa.Function]bool {
	out := make(map[*ssa.Function]bool)
	var visit func(f *ssa.Function, depth int, top bool)
	visit = func(f *ssa.Function, depth int, top bool) {
		if depth == 0 {
			return
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || top && after[instr] {
					continue
				}
				if h := c.local(call.Common().Value); h != nil && !out[h] {
					out[h] = true
					visit(h, depth-1, false)
				}
			}
		}
	}
	visit(fn, maxRequestDepth, true)
	return out
}

// handle recognises a call that obtains a per-resource informer handle
// from a factory (factory.Core().V1().Pods()).
func handle(instr ssa.Instruction) (request, bool) {
	call, ok := instr.(*ssa.Call)
	if !ok || !kube.IsResourceInformer(call.Type()) {
		return request{}, false
	}
	_, recv, _ := callee(call.Common())
	obj := kube.ObjectOf(call.Type())
	if recv == nil || obj == nil {
		return request{}, false
	}
	return request{at: instr, fn: instr.Parent(), res: kube.ObjectKey(obj), key: chainKey(recv)}, true
}

// chainKey is the factory a handle chain starts from (the receiver of
// Core() in factory.Core().V1().Pods()), as a factory key.
func chainKey(v ssa.Value) any {
	for range 8 {
		v = unconvert(v)
		call, ok := v.(*ssa.Call)
		if !ok || !(kube.IsFactoryAccessor(call.Type()) || kube.IsResourceInformer(call.Type())) {
			break
		}
		_, recv, _ := callee(call.Common())
		if recv == nil {
			break
		}
		v = recv
	}
	return factoryKey(v)
}

// runs reports whether the informer a request returns is run directly
// (go informer.Run(stopCh)): then it does not need the factory's Start.
func (c *checker) runs(at ssa.Instruction) bool {
	v, ok := at.(ssa.Value)
	if !ok {
		return false
	}
	seen := map[ssa.Value]bool{}
	var uses func(v ssa.Value) bool
	uses = func(v ssa.Value) bool {
		if seen[v] || v.Referrers() == nil {
			return false
		}
		seen[v] = true
		for _, ref := range *v.Referrers() {
			switch r := ref.(type) {
			case ssa.CallInstruction:
				if fn, recv, _ := callee(r.Common()); recv == v && kube.IsInformerRun(fn, recvType(recv)) {
					return true
				}
			case *ssa.ChangeInterface:
				if uses(r) {
					return true
				}
			case *ssa.MakeInterface:
				if uses(r) {
					return true
				}
			}
		}
		return false
	}
	return uses(v)
}

// instrs is a set of instructions in a stable order.
type instrs struct {
	order []ssa.Instruction
	set   map[ssa.Instruction]bool
}

// reachableAfter returns the instructions that can run after instr in its
// function: the rest of its block and every block reachable from it
// (instr's own block again, whole, when a loop leads back to it).
func reachableAfter(instr ssa.Instruction) instrs {
	out := instrs{set: make(map[ssa.Instruction]bool)}
	add := func(i ssa.Instruction) {
		if !out.set[i] {
			out.set[i] = true
			out.order = append(out.order, i)
		}
	}
	b := instr.Block()
	past := false
	for _, i := range b.Instrs {
		if past {
			add(i)
		}
		past = past || i == instr
	}
	seen := make(map[*ssa.BasicBlock]bool)
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		for _, i := range s.Instrs {
			add(i)
		}
		work = append(work, s.Succs...)
	}
	return out
}

// factoryKey identifies a factory within a function: the struct field or
// package variable it is loaded from, or else the value itself (a
// parameter, a local).
func factoryKey(v ssa.Value) any {
	v = unconvert(v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if f := ssax.FieldOfAddr(load.X); f != nil {
			return f
		}
		if g, ok := load.X.(*ssa.Global); ok {
			return g
		}
	}
	if fv, ok := v.(*ssa.Field); ok {
		if st, ok := fv.X.Type().Underlying().(*types.Struct); ok && fv.Field < st.NumFields() {
			return st.Field(fv.Field)
		}
	}
	return v
}

func sameFactory(v ssa.Value, key any) bool { return factoryKey(v) == key }

// derived reports whether v is the factory key or a handle asked of it:
// the group and version accessors and the per-resource informers
// (factory.Core().V1().Pods()).
func derived(v ssa.Value, key any) bool {
	for range 8 {
		v = unconvert(v)
		if sameFactory(v, key) {
			return true
		}
		call, ok := v.(*ssa.Call)
		if !ok {
			return false
		}
		t := call.Type()
		if !kube.IsFactoryAccessor(t) && !kube.IsResourceInformer(t) {
			return false
		}
		_, recv, _ := callee(call.Common())
		if recv == nil {
			return false
		}
		v = recv
	}
	return false
}

// unconvert looks through interface and type conversions.
func unconvert(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}

// dynType is the concrete type of an object passed as an interface
// (&corev1.Pod{} to InformerFor), without the pointer.
func dynType(v ssa.Value) types.Type {
	mi, ok := v.(*ssa.MakeInterface)
	if !ok {
		return nil
	}
	t := mi.X.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return nil
	}
	return t
}

// gvrName names a GroupVersionResource held in a package variable, or "".
func gvrName(v ssa.Value) string {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if g, ok := load.X.(*ssa.Global); ok {
			return g.Name()
		}
	}
	return ""
}

// factoryName spells the factory for a message.
func factoryName(key any) string {
	switch k := key.(type) {
	case *types.Var:
		return "the factory in field " + k.Name()
	case *ssa.Parameter:
		return k.Name()
	case *ssa.Global:
		return k.Name()
	}
	return "the informer factory"
}
