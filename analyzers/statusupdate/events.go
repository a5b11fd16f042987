package statusupdate

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// An event is what one instruction does to an object: a store into a part
// of it, or a send to the API server.
type event struct {
	store part // noPart for a send
	field string
	send  sendKind // 0 for a store
	obj   ident
	typ   types.Type // the object's type when known (a pointer, an apply configuration)

	method string        // the client method of a send ("Update", "Status().Update")
	direct *send         // the client call itself, when this instruction is it
	via    *ssa.Function // the package helper this instruction calls to send it
	weak   bool          // guessed from a callee's name: only ever excuses
	defers bool          // run at the function's exit (a defer)
	sub    int           // order within the instruction: a mutate function's stores (0) precede its write (1)
	instr  ssa.Instruction
	pos    token.Pos // where the instruction is
	src    token.Pos // where the store or send is written (in a helper, for effects)
}

// scanner turns functions into events, using what the package's helpers
// are known to do.
type scanner struct {
	pkg       *ssa.Package
	summaries map[*ssa.Function]*summary
	fieldFns  map[*types.Var][]ssa.Value // func-typed fields and the functions stored in them
}

// scan lists the events of fn, in no particular order, and the parameters
// it writes through (a pointer into an object handed to it).
func (sc *scanner) scan(fn *ssa.Function) ([]event, map[ssa.Value]bool) {
	var evs []event
	through := make(map[ssa.Value]bool)
	add := func(e event) {
		if !e.src.IsValid() {
			e.src = e.pos
		}
		evs = append(evs, e)
	}
	storeAt := func(instr ssa.Instruction, pos token.Pos, acc access) {
		if !acc.obj.valid() {
			if acc.root != nil {
				through[acc.root] = true
			}
			return
		}
		p, f := partOf(acc.fields)
		if p == noPart {
			return
		}
		add(event{store: p, field: f, obj: acc.obj, typ: acc.typ, instr: instr, pos: pos})
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if keepsStatus(x) {
					continue // o.Status = T{} or = old.Status: no change to lose
				}
				pos := x.Pos()
				if !pos.IsValid() {
					pos = x.Addr.Pos()
				}
				acc := accessOf(x.Addr)
				if acc.obj.valid() && defaulting(x, acc) {
					continue // in-memory defaulting of an unset field, not a change to send
				}
				storeAt(x, pos, acc)
			case *ssa.MapUpdate:
				storeAt(x, x.Pos(), accessOf(x.Map))
			case ssa.CallInstruction:
				_, deferred := x.(*ssa.Defer)
				for _, e := range sc.callEvents(x, storeAt) {
					e.defers = deferred
					add(e)
				}
			}
		}
	}
	return evs, through
}

// callEvents returns the events of one call: a client send, a known
// setter, a package helper's effects, or a guess from the callee's name.
func (sc *scanner) callEvents(call ssa.CallInstruction, storeAt func(ssa.Instruction, token.Pos, access)) []event {
	common := call.Common()
	pos := common.Pos()
	if s, ok := clientSend(call); ok {
		var out []event
		for i, id := range s.objects {
			typ := objType(s.values[i], s.served)
			out = append(out, event{send: s.kind, obj: id, typ: typ, method: s.method, direct: &s, instr: call, pos: pos})
		}
		return out
	}
	callee := ssax.Callee(common)
	if mw, ok := mutateWriteOf(callee); ok && mw.Object < len(common.Args) && mw.Mutate < len(common.Args) {
		return sc.mutateEvents(call, mw, storeAt)
	}
	switch {
	case statusConditionFunc(callee) && len(common.Args) > 0:
		storeAt(call, pos, accessOf(common.Args[0]))
		return nil
	case callee != nil:
		args := common.Args
		if common.IsInvoke() {
			args = append([]ssa.Value{common.Value}, args...) // obj.SetLabels through client.Object
		}
		if ms, ok := metaSetterOf(callee); ok && ms.Arg < len(args) {
			arg := args[ms.Arg]
			if t := objType(arg, nil); t != nil {
				return []event{{store: metaPart, field: ms.Field, obj: identOf(arg), typ: t, instr: call, pos: pos}}
			}
			if types.IsInterface(strip(arg).Type()) {
				// An object behind client.Object or metav1.Object (a
				// helper's parameter): its type is the one sent, or the
				// caller's, where the helper's effects are applied.
				return []event{{store: metaPart, field: ms.Field, obj: identOf(arg), instr: call, pos: pos}}
			}
			// SetLabels on &o.ObjectMeta (the promoted method's receiver).
			acc := accessOf(arg)
			if acc.obj.valid() && len(acc.fields) == 1 && acc.fields[0] == "ObjectMeta" {
				return []event{{store: metaPart, field: ms.Field, obj: acc.obj, typ: acc.typ, instr: call, pos: pos}}
			}
			return nil
		}
	}
	if recv, ok := applyBuilder(common); ok {
		if e, ok := applyEvent(callee, recv); ok {
			e.instr, e.pos = call, pos
			return []event{e}
		}
		return nil
	}
	if common.IsInvoke() {
		return guess(call, callee)
	}
	if targets, offset, bindings := sc.local(common.Value); len(targets) > 0 {
		// What the helpers are known to do, and what their names say in
		// case their sends are out of sight (a REST client, an interface).
		out := guess(call, callee)
		for _, g := range targets {
			out = append(out, sc.apply(g, offset, common.Args, bindings, call, storeAt, len(targets) == 1)...)
		}
		return out
	}
	return guess(call, callee)
}

// mutateEvents returns the events of controllerutil.CreateOrUpdate and
// CreateOrPatch: the stores of the mutate function (a closure of the
// package), then the write of the object.
func (sc *scanner) mutateEvents(call ssa.CallInstruction, mw mutateWrite, storeAt func(ssa.Instruction, token.Pos, access)) []event {
	common := call.Common()
	var out []event
	if targets, offset, bindings := sc.local(common.Args[mw.Mutate]); len(targets) == 1 {
		for _, e := range sc.apply(targets[0], offset, nil, bindings, call, storeAt, true) {
			if e.store != noPart {
				e.pos = e.src // the store in the mutate function, for the message
				out = append(out, e)
			}
		}
	}
	obj := common.Args[mw.Object]
	name := "controllerutil." + ssax.Callee(common).Name()
	s := &send{kind: mainSend, method: name, verb: name, mutate: true, call: call,
		objects: []ident{identOf(obj)}, values: []ssa.Value{obj}}
	e := event{send: mainSend, obj: identOf(obj), typ: objType(obj, nil), method: name, direct: s, instr: call, pos: common.Pos(), sub: 1}
	out = append(out, e)
	if mw.Status {
		e.send = statusSend
		out = append(out, e)
	}
	return out
}

// applyEvent turns an apply configuration's With* call into a store.
func applyEvent(callee *types.Func, recv ssa.Value) (event, bool) {
	if callee == nil {
		return event{}, false
	}
	e := event{obj: identOf(recv), typ: recv.Type()}
	switch name := strings.TrimPrefix(callee.Name(), "With"); name {
	case "Status":
		e.store = statusPart
	case "Spec":
		e.store, e.field = specPart, "Spec"
	case metaLabels, metaAnnotations, metaFinalizers, metaOwnerReferences:
		e.store, e.field = metaPart, name
	default:
		return event{}, false
	}
	return e, true
}

// objType is the type of the object a value holds when it is a concrete
// object (through conversions and the variable holding it), else what the
// client serves (nil when unknown).
func objType(v ssa.Value, served types.Type) types.Type {
	if v != nil {
		t := strip(v).Type()
		if kube.IsObjectType(t) {
			return t
		}
		if p, ok := t.Underlying().(*types.Pointer); ok && kube.IsObjectType(p.Elem()) {
			return p.Elem() // a variable holding the object
		}
	}
	return served
}

// local returns the package functions a call runs: a function or method of
// the package, a closure (with the values it captures), or what is stored
// in a func-typed field. offset is the number of leading parameters the
// call's arguments do not fill (a bound method value's receiver).
func (sc *scanner) local(fv ssa.Value) ([]*ssa.Function, int, []ssa.Value) {
	// A func literal converted to a named func type (MutateFn).
	switch v := flow.Origin(fv, flow.Conversions).(type) {
	case *ssa.Function:
		if v.Pkg == sc.pkg && v.Blocks != nil {
			return []*ssa.Function{v}, 0, nil
		}
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok && fn.Pkg == sc.pkg && fn.Blocks != nil {
			return []*ssa.Function{fn}, 0, v.Bindings
		}
		if fn, offset := ssax.Func(sc.pkg, v); fn != nil {
			return []*ssa.Function{fn}, offset, nil
		}
	case *ssa.UnOp:
		if f := ssax.LoadedField(v); f != nil {
			var out []*ssa.Function
			offset := -1
			for _, target := range sc.fieldFns[f] {
				fn, off := ssax.Func(sc.pkg, target)
				if fn == nil || offset >= 0 && off != offset {
					continue
				}
				out, offset = append(out, fn), off
			}
			return out, max(offset, 0), nil
		}
	}
	return nil, 0, nil
}

// apply re-roots a helper's effects on its parameters at a call site.
// exact is false when the call may run other functions too (a func-typed
// field with several candidates): its sends then only excuse.
func (sc *scanner) apply(g *ssa.Function, offset int, args, bindings []ssa.Value, call ssa.CallInstruction, storeAt func(ssa.Instruction, token.Pos, access), exact bool) []event {
	s := sc.summaries[g]
	if s == nil {
		return nil
	}
	argFor := func(k int) ssa.Value {
		switch {
		case k < offset:
			return nil
		case k < len(g.Params):
			if i := k - offset; i < len(args) {
				return args[i]
			}
			return nil
		case k-len(g.Params) < len(bindings):
			return bindings[k-len(g.Params)]
		}
		return nil
	}
	pos := call.Common().Pos()
	var out []event
	for _, eff := range s.effects {
		v := argFor(eff.param)
		if v == nil {
			continue
		}
		id := identOf(v)
		e := eff.ev
		e.obj = ident{root: id.root, path: id.path + eff.path}
		if t := objType(v, nil); t != nil {
			e.typ = t
		}
		e.instr, e.pos, e.sub = call, pos, 0
		if e.send != 0 {
			e.direct = nil
			if e.via == nil {
				e.via = g
			}
			e.weak = e.weak || !exact
		}
		out = append(out, e)
	}
	for k := range s.through {
		if v := argFor(k); v != nil {
			storeAt(call, pos, accessOf(v))
		}
	}
	return out
}

// guess reads an unknown callee's name: a call named for writing status
// (updateStatus, PatchPodStatus, syncStatus) that takes an object may
// write its status, one named for another write (updatePod, PatchNode,
// createOrUpdate) may write the rest. Guesses only excuse, never report.
func guess(call ssa.CallInstruction, callee *types.Func) []event {
	name := ""
	common := call.Common()
	switch {
	case common.IsInvoke():
		name = common.Method.Name()
	case callee != nil:
		name = callee.Name()
	default:
		return nil
	}
	if fn := calleeFunc(common, callee); fn != nil && fn.Pkg() != nil && !sendsMaybe(fn.Pkg().Path()) {
		return nil // the standard library and apimachinery compute, they do not send
	}
	lower := strings.ToLower(name)
	verb := false
	for _, v := range []string{"update", "patch", "apply", "create", "sync", "write", "save", "persist"} {
		if strings.HasPrefix(lower, v) {
			verb = true
		}
	}
	if !verb {
		return nil
	}
	status := strings.Contains(lower, "status")
	main := !status
	var out []event
	args := common.Args
	if common.IsInvoke() {
		args = append([]ssa.Value{common.Value}, args...)
	}
	for _, a := range args {
		if _, ok := strip(a).(*ssa.Const); ok || !mayBeObject(strip(a).Type()) {
			continue
		}
		id, t := identOf(a), objType(a, nil)
		if status {
			out = append(out, event{send: statusSend, obj: id, typ: t, weak: true, instr: call, pos: common.Pos(), method: name})
		}
		if main {
			out = append(out, event{send: mainSend, obj: id, typ: t, weak: true, instr: call, pos: common.Pos(), method: name})
		}
	}
	return out
}

// calleeFunc is the function or interface method a call names.
func calleeFunc(common *ssa.CallCommon, callee *types.Func) *types.Func {
	if common.IsInvoke() {
		return common.Method
	}
	return callee
}

// sendsMaybe reports whether functions of a package may send objects to
// an API server: not the standard library's, not apimachinery's (patch
// computation, conversion, equality).
func sendsMaybe(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return strings.Contains(first, ".") && !strings.HasPrefix(path, "k8s.io/apimachinery/")
}

// mayBeObject reports whether a value of type t may be an API object: an
// object, a pointer to one, or an interface (client.Object, runtime.Object).
func mayBeObject(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Interface); ok {
		return true
	}
	return kube.IsObjectType(t)
}

// keepsStatus reports whether a store sets a whole status to nothing new:
// clears it (o.Status = T{}), which code does on purpose before a
// main-resource write, or copies another object's (o.Status = old.Status),
// which restores the stored one.
func keepsStatus(st *ssa.Store) bool {
	acc := accessOf(st.Addr)
	if len(acc.fields) != 1 || acc.fields[0] != "Status" {
		return false
	}
	switch v := st.Val.(type) {
	case *ssa.Const:
		return v.Value == nil
	case *ssa.UnOp:
		if v.Op == token.MUL {
			src := accessOf(v.X)
			return len(src.fields) == 1 && src.fields[0] == "Status" && src.obj.valid() && src.obj != acc.obj
		}
	}
	return false
}

// defaulting reports whether a store sets a field only after checking
// that it is unset — `if b.ScaleDown.StabilizationWindowSeconds == nil {
// b.ScaleDown.StabilizationWindowSeconds = &w }` —: controllers default
// fields in memory to compute with them, not to write them back (HPA's
// scale-down stabilization window).
func defaulting(st *ssa.Store, acc access) bool {
	b := st.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok || len(d.Succs) != 2 {
			continue
		}
		bin, ok := cond.Cond.(*ssa.BinOp)
		if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
			continue
		}
		taken := d.Succs[0] // the branch where the field is unset
		if bin.Op == token.NEQ {
			taken = d.Succs[1]
		}
		if !taken.Dominates(b) {
			continue
		}
		for _, pair := range [][2]ssa.Value{{bin.X, bin.Y}, {bin.Y, bin.X}} {
			if !isZero(pair[1]) {
				continue
			}
			load, ok := pair[0].(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				continue
			}
			if other := accessOf(load.X); other.obj == acc.obj && equalFields(other.fields, acc.fields) {
				return true
			}
		}
	}
	return false
}

// isZero reports whether v is a constant zero value (nil, "", 0, false).
func isZero(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.String:
		return constant.StringVal(c.Value) == ""
	case constant.Int, constant.Float:
		return constant.Sign(c.Value) == 0
	case constant.Bool:
		return !constant.BoolVal(c.Value)
	}
	return false
}

func equalFields(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
