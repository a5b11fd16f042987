package tombstone

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	dataflow "github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/lend"
)

// A module may run all its workers through one shared loop of another
// package (argo-rollouts' controllerutil.RunWorker(ctx, c.queue, kind,
// c.syncService, metrics)): it takes the keys from the queue it is handed
// and hands each to the sync func it is handed. WorkerFact says so of such
// a function, so that a dropped deletion is found harmless (missing.go)
// when the sync the controller hands over ignores missing objects, as it
// is when the controller runs the loop itself.

// WorkerFact, on a function of a package of the analysed modules, says that
// it runs a worker of the work queue in parameter Queue: each key it takes
// with Get goes only to queue methods, to reporting, and to calls of the
// func in parameter Sync, as its argument Key. It is link 4 of the
// harmless-drop proof (missing.go) across packages. All three are set;
// indexes do not count a receiver.
type WorkerFact struct {
	Queue int // the parameter holding the queue
	Sync  int // the parameter holding the sync func
	Key   int // the sync's argument that receives the key
}

// AFact implements analysis.Fact.
func (*WorkerFact) AFact() {}

func (f *WorkerFact) String() string {
	return fmt.Sprintf("tombstone worker(queue param %d, sync param %d, key arg %d)", f.Queue, f.Sync, f.Key)
}

// maxWorkerDepth bounds how deep a worker loop is followed into the
// package's functions and closures (RunWorker → processNextWorkItem → the
// closure that runs the sync): argo-rollouts' loop needs three; one more
// leaves room for a wrapper, and a recursive loop must stop.
const maxWorkerDepth = 4

// A held is the parameter of the summarised function a value of the loop
// holds, its index not counting a receiver; ok is false when it holds
// none (the receiver, a value made in the loop).
type held struct {
	param int
	ok    bool
}

// workerFact summarises obj as a worker loop, or returns nil.
func (c *checker) workerFact(obj *types.Func) *WorkerFact {
	sig := obj.Signature()
	hasQueue, hasFunc := false, false
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		if _, ok := kube.QueueOf(t); ok {
			hasQueue = true
		}
		if _, ok := t.Underlying().(*types.Signature); ok {
			hasFunc = true
		}
	}
	if !hasQueue || !hasFunc {
		return nil
	}
	fn := c.prog.FuncValue(obj)
	if fn == nil || fn.Blocks == nil {
		return nil
	}
	offset := len(fn.Params) - sig.Params().Len()
	env := &workerEnv{fn: fn, params: make([]held, len(fn.Params))}
	for i := offset; i < len(env.params); i++ {
		env.params[i] = held{i - offset, true}
	}
	w := &workerWalk{c: c, sig: sig}
	if !w.visit(env, 0) || w.gets == 0 || !w.sync.ok {
		return nil
	}
	return &WorkerFact{Queue: w.queue.param, Sync: w.sync.param, Key: w.key}
}

// A workerEnv is a function of the worker loop with where its values come
// from: for each parameter, the summarised function's parameter it holds.
// A closure's free variables hold what is bound to them where it was made,
// in maker (nil for a function).
type workerEnv struct {
	fn     *ssa.Function
	params []held
	maker  *workerEnv
}

// origin is the summarised function's parameter v holds.
func (e *workerEnv) origin(v ssa.Value) held {
	switch v := dataflow.Origin(v, dataflow.Conversions).(type) {
	case *ssa.Parameter:
		for i, p := range e.fn.Params {
			if p == v {
				return e.params[i]
			}
		}
	case *ssa.FreeVar:
		return e.freeOrigin(v)
	case *ssa.UnOp:
		switch v.X.(type) {
		case *ssa.FreeVar, *ssa.Alloc:
			return e.binding(v.X) // a load from a captured variable's cell
		}
	}
	return held{}
}

func (e *workerEnv) freeOrigin(fv *ssa.FreeVar) held {
	if e.maker == nil {
		return held{}
	}
	return e.maker.binding(dataflow.Binding(fv))
}

// binding is the origin of a value bound to a closure: a value, or a cell
// holding the one value ever stored to it (a captured parameter, spilled
// on entry).
func (e *workerEnv) binding(v ssa.Value) held {
	if cell, ok := v.(*ssa.Alloc); ok {
		if v = storedOnce(cell); v == nil {
			return held{}
		}
	}
	return e.origin(v)
}

// A workerWalk follows a worker loop: the queue parameter its Gets are
// made on, the func parameter its keys go to.
type workerWalk struct {
	c     *checker
	sig   *types.Signature
	queue held
	sync  held
	key   int // the sync's argument holding the key, once sync is set
	gets  int
}

// deeper reports whether a worker loop may be followed into one more
// function at pos, from depth; when not, it notes the limit.
func (w *workerWalk) deeper(depth int, pos token.Pos) bool {
	if depth < maxWorkerDepth {
		return true
	}
	lend.LimitHit(w.c.pass, pos, "maxWorkerDepth: a worker loop nested deeper than 4 is not followed, so it gets no WorkerFact and a dropped tombstone it would show harmless counts as a lost deletion")
	return false
}

// visit checks the functions a worker loop runs: each Get on the queue
// parameter and where its key goes, and the package functions and
// closures handed the summarised function's parameters. It fails on a Get
// of another queue with a key that goes anywhere but to reporting.
func (w *workerWalk) visit(e *workerEnv, depth int) bool {
	for _, b := range e.fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			common := call.Common()
			if _, method, _, ok := keyflow.QueueOp(common); ok && method == "Get" {
				origin := e.origin(queueReceiver(common))
				if !origin.ok || w.queue.ok && w.queue != origin {
					return false // another queue's worker
				}
				w.queue = origin
				get, isCall := call.(*ssa.Call)
				if !isCall {
					return false
				}
				w.gets++
				if key := dataflow.Result(get, 0); key != nil && !w.keyUses(e, keyflow.Equivalent(key), depth) {
					return false
				}
				continue
			}
			// A package function or closure handed one of the
			// parameters: part of the loop.
			sub := w.callee(e, common)
			if sub == nil {
				continue
			}
			handed := slices.ContainsFunc(sub.params, func(h held) bool { return h.ok })
			if mc, ok := common.Value.(*ssa.MakeClosure); ok {
				handed = handed || slices.ContainsFunc(mc.Bindings, func(b ssa.Value) bool { return e.binding(b).ok })
			}
			if handed && (!w.deeper(depth, instr.Pos()) || !w.visit(sub, depth+1)) {
				return false
			}
		}
	}
	return true
}

// callee is the environment of the package function or closure a call
// runs, nil for any other call.
func (w *workerWalk) callee(e *workerEnv, common *ssa.CallCommon) *workerEnv {
	fn, offset := w.c.localCallee(common)
	if fn == nil {
		return nil
	}
	sub := &workerEnv{fn: fn, params: make([]held, len(fn.Params))}
	for i, arg := range common.Args {
		if i+offset < len(fn.Params) {
			sub.params[i+offset] = e.origin(arg)
		}
	}
	if _, ok := common.Value.(*ssa.MakeClosure); ok {
		sub.maker = e
	}
	return sub
}

// keyUses reports whether the keys of a Get in e's function go only to
// queue methods, reporting, key parsing, calls of the sync func parameter,
// and closures and package functions that do the same.
func (w *workerWalk) keyUses(e *workerEnv, keys map[ssa.Value]bool, depth int) bool {
	for _, b := range e.fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				if keys[instr.Val] && ssax.LocalRoot(instr.Addr) == nil {
					return false
				}
			case *ssa.Send:
				if keys[instr.X] {
					return false
				}
			case *ssa.MapUpdate:
				if keys[instr.Key] || keys[instr.Value] {
					return false
				}
			case *ssa.MakeClosure:
				if !w.closureKeys(e, instr, keys, depth) {
					return false
				}
			case ssa.CallInstruction:
				if !w.callKeys(e, instr, keys, depth) {
					return false
				}
			}
		}
	}
	return true
}

// closureKeys checks a closure bound to a key: it is only called, and
// uses the key as a worker may. Its calls are checked where it is made.
func (w *workerWalk) closureKeys(e *workerEnv, mc *ssa.MakeClosure, keys map[ssa.Value]bool, depth int) bool {
	var bound []ssa.Value
	fn := mc.Fn.(*ssa.Function)
	for _, fv := range fn.FreeVars {
		if keys[dataflow.Binding(fv)] {
			bound = append(bound, fv)
		}
	}
	if len(bound) == 0 {
		return true
	}
	for _, ref := range *mc.Referrers() {
		call, ok := ref.(ssa.CallInstruction)
		if !ok || call.Common().Value != mc {
			return false // the closure escapes: who runs it is unknown
		}
		for _, arg := range call.Common().Args {
			if arg == ssa.Value(mc) {
				return false
			}
		}
	}
	sub := &workerEnv{fn: fn, params: make([]held, len(fn.Params)), maker: e}
	return w.deeper(depth, mc.Pos()) && w.keyUses(sub, keyflow.Equivalent(bound...), depth+1)
}

// callKeys checks a call that may be handed a key.
func (w *workerWalk) callKeys(e *workerEnv, call ssa.CallInstruction, keys map[ssa.Value]bool, depth int) bool {
	common := call.Common()
	arg, ok := keyArg(common, keys)
	if !ok {
		return true
	}
	if _, _, _, ok := keyflow.QueueOp(common); ok {
		return true
	}
	if _, builtin := common.Value.(*ssa.Builtin); builtin {
		return true
	}
	if fn := ssax.Callee(common); isReporting(fn) || kube.IsInert(fn) || kube.IsKeyParser(fn) {
		return true
	}
	if !common.IsInvoke() && common.StaticCallee() == nil {
		// A call of a func value: the sync parameter, with the key as
		// argument arg.
		o := e.origin(common.Value)
		if !o.ok || o.param >= w.sig.Params().Len() {
			return false
		}
		if _, ok := w.sig.Params().At(o.param).Type().Underlying().(*types.Signature); !ok {
			return false
		}
		if w.sync.ok && (w.sync != o || w.key != arg) {
			return false
		}
		w.sync, w.key = o, arg
		return true
	}
	// A package function or an immediately called closure: its
	// parameter holds the key (a closure's free variables are checked
	// where it is made).
	fn, offset := w.c.localCallee(common)
	if fn == nil || arg+offset >= len(fn.Params) {
		return false
	}
	return w.deeper(depth, call.Pos()) && w.keyUses(w.callee(e, common), keyflow.Equivalent(fn.Params[arg+offset]), depth+1)
}

// queueAliases are the fields that hold the same queue as field q: q, and
// the fields every store of which in the package is a load of one of them
// (`c.queue = cfg.Queue`, `&Controller{queue: cfg.Queue}`).
func (c *checker) queueAliases(q *types.Var) map[*types.Var]bool {
	stores := make(map[*types.Var][]ssa.Value)
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					if f := ssax.FieldOfAddr(st.Addr); f != nil {
						stores[f] = append(stores[f], st.Val)
					}
				}
			}
		}
	}
	aliases := map[*types.Var]bool{q: true}
	for changed := true; changed; {
		changed = false
		for f, vals := range stores {
			if aliases[f] {
				continue
			}
			all := true
			for _, v := range vals {
				if !aliases[ssax.LoadedField(dataflow.Origin(v, dataflow.Conversions))] {
					all = false
					break
				}
			}
			if all {
				aliases[f], changed = true, true
			}
		}
	}
	return aliases
}

// importedWorkers are the calls in the package of worker loops of other
// packages (WorkerFact) run on a queue loaded from one of fields, with the
// fact of each.
func (c *checker) importedWorkers(fields map[*types.Var]bool) (calls []*ssa.CallCommon, facts []*WorkerFact) {
	if !c.imports {
		return nil, nil
	}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || call.Common().IsInvoke() {
					continue
				}
				common := call.Common()
				callee := ssax.Callee(common)
				if callee == nil || callee.Pkg() == nil || callee.Pkg() == c.pass.Pkg || callee.Signature().Recv() != nil {
					continue
				}
				var fact WorkerFact
				if !summary.Visible(c.pass, callee) || !c.pass.ImportObjectFact(callee.Origin(), &fact) {
					continue
				}
				if fact.Queue >= len(common.Args) || !fields[ssax.LoadedField(dataflow.Origin(common.Args[fact.Queue], dataflow.Conversions))] {
					continue
				}
				calls, facts = append(calls, common), append(facts, &fact)
			}
		}
	}
	return calls, facts
}
