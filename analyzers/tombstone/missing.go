package tombstone

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	dataflow "github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/internal/lend"
)

// Design note: the proof that a dropped deletion is harmless.
//
// A delete handler that only puts the object's key on a work queue hands
// the deletion to the queue's workers. When every worker's sync looks the
// key up in a lister first and returns, doing nothing, on NotFound, a
// deletion is a no-op for this controller: dropping the tombstone loses
// nothing that the sync would have done (kubernetes' expand controller).
// The proof is one chain of links, each a function with a named result;
// the first link that does not hold gives the failure, and the drop is
// reported. Anything a link cannot see through fails it.
//
//  1. The drop (assertedDrop, rootDrop): a comma-ok assertion to an API
//     object type whose failure path drops the tombstone, or a root
//     handler whose helper drops it. Establishes a drop: the function, the
//     value holding the object, and the objKind a sync must read for a
//     missing object to mean the deleted one.
//  2. Enqueue only (enqueueOnly): everything the function does is
//     reporting, computing the object's key (a key function, or a helper
//     of the package that only returns the key: returnsKey) and adding
//     that key to queues, through helpers of the package (at most
//     maxHelperDepth deep) or enqueue helpers of other packages of the
//     module (ParamEffect.Enqueues of their HelperFact, made by
//     queueParam). Establishes the queueSet.
//  3. Held in a field (lossless): each queue is loaded from a field of a
//     struct, so that its workers can be found wherever the package runs
//     them; queueAliases adds the fields assigned from it. Establishes the
//     fields.
//  4. Workers (workersIgnoreMissing): each Get on one of the fields in the
//     package (keyflow.Gets), and each worker loop of another package run
//     on one (WorkerFact, made by workerFact, at most maxWorkerDepth
//     deep), hands its key only to queue methods, reporting, and syncs
//     that pass link 5, and at least one of each exists. Establishes the
//     workersFound.
//  5. The sync ignores a missing object (quietRead): it reads the key's
//     object of the objKind from a lister by the name parsed from the key,
//     with nothing but reporting and parsing before, and on NotFound
//     returns a nil error with nothing but reporting on the way. Establishes
//     the read.
//
// The depth limits are where a chain of helpers is cut off; the link then
// fails, the drop is reported, and ctrllint -v says where (lend.LimitHit).

// A failure says why a link of the proof does not hold: the first thing it
// could not see through. The empty failure means the link holds.
type failure string

// An objKind is what a sync must read for a missing object to mean the
// deleted one: an API object type (v1.PersistentVolumeClaim), or, for a
// handler registered on an untyped informer held in a field (a dynamic
// informer), that informer: the sync must read through a dynamic lister
// built on its indexer (`dynamiclister.New(c.informer.GetIndexer(), gvr)`).
type objKind struct {
	typ      types.Type
	informer *types.Var
}

// A drop is link 1's result: obj, in fn, is the deleted object, of kind.
type drop struct {
	fn   *ssa.Function
	obj  ssa.Value
	kind objKind
}

// A queueSet is link 2's result: the queue values (a field load, a
// parameter) the queue methods adding the key are called on.
type queueSet map[ssa.Value]bool

// workersFound is link 4's result: how many workers take keys from a
// queue, and how many syncs that ignore missing objects they hand the
// keys to.
type workersFound struct {
	workers, syncs int
}

// maxHelperDepth bounds how far an enqueue is followed into package helpers
// (handler → enqueue(obj) → enqueueKey(obj)): kubernetes' and
// argo-rollouts' controllers need two; a longer chain of helpers that only
// enqueue is not worth following, and a recursive helper must stop.
const maxHelperDepth = 3

// dropLosesNothing reports whether the object asserted by ta, when the
// assertion fails on a tombstone, is dropped without loss.
func (c *checker) dropLosesNothing(fn *ssa.Function, ta *ssa.TypeAssert) bool {
	d, why := assertedDrop(fn, ta)
	return why == "" && c.lossless(d) == ""
}

// rootDropLosesNothing reports whether a tombstone dropped on the way from
// o's handler is dropped without loss, whichever helper drops it.
func (c *checker) rootDropLosesNothing(o origin) bool {
	d, why := rootDrop(o.root)
	return why == "" && c.lossless(d) == ""
}

// assertedDrop is link 1 for a comma-ok assertion in fn: the asserted
// object, of the asserted API object type.
func assertedDrop(fn *ssa.Function, ta *ssa.TypeAssert) (drop, failure) {
	objType := kube.Pointee(ta.AssertedType)
	if objType == nil || !kube.IsObjectType(ta.AssertedType) {
		return drop{}, "asserts to something other than an API object"
	}
	obj := dataflow.Result(ta, 0)
	if obj == nil {
		return drop{}, "the asserted object is not used"
	}
	return drop{fn: fn, obj: obj, kind: objKind{typ: objType}}, ""
}

// rootDrop is link 1 for a root handler whose helper drops the tombstone:
// the handler's parameter, of the kind its informer delivers.
func rootDrop(r root) (drop, failure) {
	switch {
	case r.fn == nil || r.param >= len(r.fn.Params):
		return drop{}, "no handler function"
	case r.kind == nil && r.informer == nil:
		return drop{}, "the informer's kind is unknown"
	case r.mode != mayBeTombstone:
		return drop{}, "the handler's object is no tombstone"
	}
	return drop{fn: r.fn, obj: r.fn.Params[r.param], kind: objKind{typ: r.kind, informer: r.informer}}, ""
}

// lossless runs links 2 to 5 on d: d.fn only adds d.obj's key to work
// queues held in fields, and each queue's workers ignore missing objects
// of d.kind.
func (c *checker) lossless(d drop) failure {
	queues, why := c.enqueueOnly(d.fn, d.obj, 0)
	if why != "" {
		return why
	}
	if len(queues) == 0 {
		return "adds the key to no queue"
	}
	for q := range queues {
		field := ssax.LoadedField(q)
		if field == nil {
			return "adds the key to a queue not held in a field"
		}
		if _, why := c.workersIgnoreMissing(field, d.kind); why != "" {
			return why
		}
	}
	return ""
}

// queueParam is the Enqueues of a helper's ParamEffect: the queue
// parameter that fn adds the key of obj to, when that is all it does with
// obj, or nil. offset is 1 for a method, whose receiver is not counted.
func (c *checker) queueParam(fn *ssa.Function, obj ssa.Value, offset int) *QueueParam {
	queues, why := c.enqueueOnly(fn, obj, 0)
	if why != "" || len(queues) != 1 {
		return nil
	}
	for q := range queues {
		if p, ok := q.(*ssa.Parameter); ok {
			if i := slices.Index(fn.Params, p); i >= offset {
				return &QueueParam{Param: i - offset}
			}
		}
	}
	return nil
}

// enqueueOnly is link 2: everything fn does is reporting, computing obj's
// key and adding that key to work queues. The key may come from a key
// function, or from a helper of the package that only computes it
// (returnsKey); the queue call may be an enqueue helper of another package
// of the module (ParamEffect.Enqueues), or a helper of the package, which
// is followed (depth counts those).
func (c *checker) enqueueOnly(fn *ssa.Function, obj ssa.Value, depth int) (queueSet, failure) {
	objs := keyflow.Equivalent(obj)
	keys := make(map[ssa.Value]bool)
	queues := make(queueSet)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if outlives(instr) {
				return nil, "writes state that outlives the handler"
			}
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				common := instr.Common()
				if _, builtin := common.Value.(*ssa.Builtin); builtin || isReporting(ssax.Callee(common)) {
					continue
				}
				if call, isCall := instr.(*ssa.Call); isCall && keyCall(call, objs, keys) {
					continue
				}
				if tf, ok := tombstoneFuncOf(ssax.Callee(common)); ok && (tf.Handles || tf.Replacement != "") {
					return nil, "computes the key of something else"
				}
				if _, method, args, ok := keyflow.QueueOp(common); ok {
					if !strings.HasPrefix(method, "Add") || len(args) == 0 || !keys[dataflow.Origin(args[0], dataflow.Conversions)] {
						return nil, "calls a queue method other than adding the object's key"
					}
					queues[dataflow.Origin(queueReceiver(common), dataflow.Conversions)] = true
					continue
				}
				if readsObject(common, objs) {
					continue // obj.GetName() and kin
				}
				if q := c.enqueueHelperQueue(common, objs); q != nil {
					queues[q] = true
					continue
				}
				callee, offset := c.localCallee(common)
				if callee == nil {
					return nil, "calls code it cannot follow"
				}
				param, found := 0, false
				for i, arg := range common.Args {
					if objs[dataflow.Origin(arg, dataflow.Conversions)] {
						param, found = i+offset, true
					}
				}
				if !found || param >= len(callee.Params) {
					return nil, "calls a function of the package without the object"
				}
				if call, isCall := instr.(*ssa.Call); isCall && c.returnsKey(callee, callee.Params[param]) {
					markKeys(call, keys)
					continue
				}
				if depth == maxHelperDepth {
					lend.LimitHit(c.pass, instr.Pos(), "maxHelperDepth: an enqueue helper nested deeper than 3 is not followed, so a dropped tombstone counts as a lost deletion")
					return nil, "helpers nested deeper than maxHelperDepth"
				}
				sub, why := c.enqueueOnly(callee, callee.Params[param], depth+1)
				if why != "" {
					return nil, why
				}
				for q := range sub {
					queues[q] = true
				}
			}
		}
	}
	return queues, ""
}

// keyCall reports whether call computes the key of one of objs with a key
// function, and adds its key result to keys.
func keyCall(call *ssa.Call, objs, keys map[ssa.Value]bool) bool {
	common := call.Common()
	tf, ok := tombstoneFuncOf(ssax.Callee(common))
	if !ok || !tf.Handles && tf.Replacement == "" || len(common.Args) != 1 || !objs[dataflow.Origin(common.Args[0], dataflow.Conversions)] {
		return false
	}
	markKeys(call, keys)
	return true
}

// markKeys adds the first result of call to keys.
func markKeys(call *ssa.Call, keys map[ssa.Value]bool) {
	if ext := dataflow.Result(call, 0); ext != nil {
		keys[ext] = true
	}
	if _, tuple := call.Type().(*types.Tuple); !tuple {
		keys[call] = true // ObjectToName
	}
}

// returnsKey reports whether fn only computes the key of the object in
// param with a key function and returns it as its first result, reporting
// aside (argo-rollouts' metaNamespaceKeyFunc, which lets a string through as
// an explicit key).
func (c *checker) returnsKey(fn *ssa.Function, param ssa.Value) bool {
	objs := keyflow.Equivalent(param)
	keys := make(map[ssa.Value]bool)
	var rets []*ssa.Return
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, panics := instr.(*ssa.Panic); panics || outlives(instr) {
				return false
			}
			switch instr := instr.(type) {
			case *ssa.Return:
				rets = append(rets, instr)
			case ssa.CallInstruction:
				common := instr.Common()
				if _, builtin := common.Value.(*ssa.Builtin); builtin || isReporting(ssax.Callee(common)) {
					continue
				}
				if call, isCall := instr.(*ssa.Call); !isCall || !keyCall(call, objs, keys) {
					return false
				}
			}
		}
	}
	for _, ret := range rets {
		if len(ret.Results) == 0 || !keys[ret.Results[0]] {
			return false
		}
	}
	return len(rets) > 0
}

// enqueueHelperQueue returns the queue a call of an enqueue helper of
// another package of the module (ParamEffect.Enqueues) adds the key of one
// of objs to, or nil.
func (c *checker) enqueueHelperQueue(common *ssa.CallCommon, objs map[ssa.Value]bool) ssa.Value {
	for i, arg := range common.Args {
		if !objs[dataflow.Origin(arg, dataflow.Conversions)] {
			continue
		}
		p, ok := c.helperEffect(common, i)
		if !ok || p.Enqueues == nil {
			return nil
		}
		q := p.Enqueues.Param + i - p.Param // the argument of the queue parameter
		if q < 0 || q >= len(common.Args) {
			return nil
		}
		return dataflow.Origin(common.Args[q], dataflow.Conversions)
	}
	return nil
}

// readsObject reports whether a call is a getter of an API type's method
// set (pvc.GetName(), pvc.ObjectMeta.GetLabels()) on one of objs or a field
// of one. Methods of the package itself may do anything.
func readsObject(common *ssa.CallCommon, objs map[ssa.Value]bool) bool {
	fn := common.StaticCallee()
	if common.IsInvoke() || fn == nil || fn.Signature.Recv() == nil || len(common.Args) == 0 {
		return false
	}
	if obj := fn.Object(); obj == nil || obj.Pkg() == nil || !strings.HasPrefix(fn.Name(), "Get") || !isAPIPackage(obj.Pkg().Path()) {
		return false
	}
	for recv := range dataflow.Chain(dataflow.Origin(common.Args[0], dataflow.Conversions), dataflow.Fields|dataflow.Loads) {
		if objs[recv] {
			return true
		}
	}
	return false
}

// isAPIPackage reports whether path holds API types: k8s.io/api and
// apimachinery's meta/v1, whose getters only read.
func isAPIPackage(path string) bool {
	return strings.HasPrefix(path, "k8s.io/api/") || path == kube.MetaV1Pkg
}

// queueReceiver is the queue value a queue method is called on.
func queueReceiver(common *ssa.CallCommon) ssa.Value {
	if common.IsInvoke() {
		return common.Value
	}
	return common.Args[0]
}

// workersIgnoreMissing is link 4: the queue held in field q (or in a
// field assigned from it, queueAliases) has workers, and each hands its
// key to syncs that return on an object of kind missing from their lister
// (link 5), and otherwise only settles the key or reports. A worker is a
// Get in the package, or a worker loop of another package of the module
// (WorkerFact) run on the queue with a sync of the package.
func (c *checker) workersIgnoreMissing(q *types.Var, kind objKind) (workersFound, failure) {
	if c.gets == nil {
		c.gets = c.keys.Items()
	}
	fields := c.queueAliases(q)
	var found workersFound
	for _, it := range c.gets {
		if !fields[ssax.LoadedField(queueReceiver(it.Get.Common()))] {
			continue
		}
		found.workers++
		keys := keyflow.Equivalent(it.Key)
		for _, b := range it.Fn.Blocks {
			for _, instr := range b.Instrs {
				n, ok := c.keyUse(instr, keys, kind)
				if !ok {
					return found, "a worker does more with the key than settle it, report it and sync it"
				}
				found.syncs += n
			}
		}
	}
	calls, facts := c.importedWorkers(fields)
	for i, common := range calls {
		found.workers++
		if facts[i].Sync >= len(common.Args) {
			return found, "a shared worker loop is called with too few arguments"
		}
		fn, offset := ssax.Func(c.pkg, common.Args[facts[i].Sync])
		if fn == nil || facts[i].Key+offset >= len(fn.Params) || c.quietRead(fn, fn.Params[facts[i].Key+offset], kind) == nil {
			return found, "a shared worker loop's sync is not seen to ignore a missing object"
		}
		found.syncs++
	}
	switch {
	case found.workers == 0:
		return found, "no worker takes keys from the queue"
	case found.syncs == 0:
		return found, "no worker hands the key to a sync that ignores a missing object"
	}
	return found, ""
}

// keyUse checks one instruction of a worker holding keys: it may settle
// the key, report it, or pass it to syncs that ignore missing objects
// (their number is returned); anything else may act on the key.
func (c *checker) keyUse(instr ssa.Instruction, keys map[ssa.Value]bool, kind objKind) (int, bool) {
	switch instr := instr.(type) {
	case *ssa.Store:
		return 0, !keys[instr.Val] || ssax.LocalRoot(instr.Addr) != nil
	case *ssa.MakeClosure:
		for _, v := range instr.Bindings {
			if keys[v] {
				return 0, false // a closure we do not follow holds the key
			}
		}
	case *ssa.Send:
		return 0, !keys[instr.X]
	case *ssa.MapUpdate:
		return 0, !keys[instr.Key] && !keys[instr.Value]
	case ssa.CallInstruction:
		common := instr.Common()
		param, ok := keyArg(common, keys)
		if !ok {
			return 0, true
		}
		if _, _, _, ok := keyflow.QueueOp(common); ok || isReporting(ssax.Callee(common)) {
			return 0, true
		}
		if _, builtin := common.Value.(*ssa.Builtin); builtin {
			return 0, true
		}
		fns, offset := c.funcsCalled(common)
		if len(fns) == 0 {
			return 0, false
		}
		n := 0
		for _, fn := range fns {
			p := param + offset
			switch {
			case p >= len(fn.Params):
				return 0, false
			case c.quietRead(fn, fn.Params[p], kind) != nil:
				n++
			case !settlesOnly(fn):
				return 0, false
			}
		}
		return n, true
	}
	return 0, true
}

// funcsCalled resolves a call to the package functions it may run: a
// function or method of the package, or a func-valued field (c.syncHandler)
// every store of which is one.
func (c *checker) funcsCalled(common *ssa.CallCommon) ([]*ssa.Function, int) {
	if common.IsInvoke() {
		return nil, 0
	}
	if fn, offset := ssax.Func(c.pkg, common.Value); fn != nil {
		return []*ssa.Function{fn}, offset
	}
	field := ssax.LoadedField(common.Value)
	if field == nil {
		return nil, 0
	}
	if c.fieldFuncs == nil {
		c.fieldFuncs = ssax.StoredFuncs(c.funcs)
	}
	var fns []*ssa.Function
	offset := -1
	for _, v := range c.fieldFuncs[field] {
		f, off := ssax.Func(c.pkg, v)
		if f == nil || offset >= 0 && off != offset {
			return nil, 0 // set from elsewhere: unknown
		}
		fns, offset = append(fns, f), off
	}
	if offset < 0 {
		return nil, 0
	}
	return fns, offset
}

// outlives reports whether instr leaves something behind its function:
// a store to memory that is not local, a map update, a send, a goroutine.
func outlives(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.Store:
		return ssax.LocalRoot(instr.Addr) == nil
	case *ssa.MapUpdate, *ssa.Send, *ssa.Go:
		return true
	}
	return false
}

// keyArg is the index of the last argument of a call that is one of keys;
// ok is false when none is.
func keyArg(common *ssa.CallCommon, keys map[ssa.Value]bool) (arg int, ok bool) {
	for i, a := range common.Args {
		if keys[a] {
			arg, ok = i, true
		}
	}
	return arg, ok
}

// settlesOnly reports whether fn only calls queue methods and reports
// (handleErr).
func settlesOnly(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if outlives(instr) {
				return false
			}
			if call, ok := instr.(ssa.CallInstruction); ok {
				common := call.Common()
				if _, _, _, ok := keyflow.QueueOp(common); ok {
					continue
				}
				if _, builtin := common.Value.(*ssa.Builtin); !builtin && !isReporting(ssax.Callee(common)) {
					return false
				}
			}
		}
	}
	return true
}

// quietRead is link 5: the read by which the sync fn, given a key in
// keyParam, ignores a missing object, or nil. The sync reads the key's
// object of kind from a lister and returns on NotFound without doing
// anything: only reporting and parsing the key happen on the way to that
// read, and only reporting on the way out, whose error result is nil (an
// error would re-queue the key).
func (c *checker) quietRead(fn *ssa.Function, keyParam ssa.Value, kind objKind) *ssa.Call {
	keys := keyflow.Equivalent(keyParam)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !c.readsKeyObject(call, keys, kind) {
				continue
			}
			notFound := notFoundBranch(call)
			if notFound == nil || !inertBefore(call) {
				continue
			}
			if returnsQuietly(notFound, call.Block()) {
				return call
			}
		}
	}
	return nil
}

// readsKeyObject reports whether call reads one object of kind from a
// lister by a name parsed from the key.
func (c *checker) readsKeyObject(call *ssa.Call, keys map[ssa.Value]bool, kind objKind) bool {
	common := call.Common()
	fn := ssax.Callee(common)
	if fn == nil {
		return false
	}
	recv := common.Value.Type() // an interface lister
	if !common.IsInvoke() {
		sig := fn.Type().(*types.Signature)
		if sig.Recv() == nil {
			return false
		}
		recv = sig.Recv().Type()
	}
	read, ok := kube.CacheReadOf(fn, recv)
	if !ok || read.Many {
		return false
	}
	res := fn.Type().(*types.Signature).Results()
	switch {
	case res.Len() != 2:
		return false
	case kind.typ != nil:
		if !kube.IsLister(recv) || !types.Identical(kube.Pointee(res.At(0).Type()), kind.typ) {
			return false
		}
	case !c.listsInformer(queueReceiver(common), kind.informer):
		return false
	}
	for _, arg := range common.Args {
		if parsedFromKey(arg, keys) {
			return true
		}
	}
	return false
}

// listsInformer reports whether lister, a dynamic lister or namespace
// lister, reads the indexer of the informer held in field informer: it is
// loaded from a field every store of which in the package is
// `dynamiclister.New(<informer>.GetIndexer(), gvr)` (`.Namespace(ns)` of
// it).
func (c *checker) listsInformer(lister ssa.Value, informer *types.Var) bool {
	if informer == nil {
		return false
	}
	if call, ok := lister.(*ssa.Call); ok && call.Common().IsInvoke() && call.Common().Method.Name() == "Namespace" {
		lister = call.Common().Value
	}
	if !kube.IsDynamicLister(lister.Type()) {
		return false
	}
	field := ssax.LoadedField(lister)
	if field == nil {
		return false
	}
	stores := 0
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || ssax.FieldOfAddr(st.Addr) != field {
					continue
				}
				stores++
				if !builtOn(st.Val, informer) {
					return false
				}
			}
		}
	}
	return stores > 0
}

// isLister reports whether t is a lister (kube.IsLister) or a dynamic
// lister: reading it changes nothing.
func isLister(t types.Type) bool {
	return kube.IsLister(t) || kube.IsDynamicLister(t)
}

// builtOn reports whether v is `dynamiclister.New(x.GetIndexer(), ...)`
// with x loaded from field informer.
func builtOn(v ssa.Value, informer *types.Var) bool {
	call, ok := dataflow.Origin(v, dataflow.Conversions).(*ssa.Call)
	if !ok || !kube.IsFunc(ssax.Callee(call.Common()), kube.DynamicListerPkg, "New") || len(call.Common().Args) == 0 {
		return false
	}
	ix, ok := dataflow.Origin(call.Common().Args[0], dataflow.Conversions).(*ssa.Call)
	if !ok || !ix.Common().IsInvoke() || ix.Common().Method.Name() != "GetIndexer" {
		return false
	}
	return ssax.FieldOf(ix.Common().Value) == informer
}

// parsedFromKey reports whether v is the name a key parser
// (cache.SplitMetaNamespaceKey, cache.ParseObjectName) took out of a key.
func parsedFromKey(v ssa.Value, keys map[ssa.Value]bool) bool {
	call, ok := dataflow.Origin(v, dataflow.Fields|dataflow.Extracts).(*ssa.Call)
	return ok && kube.IsKeyParser(ssax.Callee(call.Common())) &&
		slices.ContainsFunc(call.Common().Args, func(arg ssa.Value) bool { return keys[arg] })
}

// notFoundBranch returns the block entered when the read's error is
// NotFound (`if apierrors.IsNotFound(err)`), or nil.
func notFoundBranch(read *ssa.Call) *ssa.BasicBlock {
	ext := dataflow.Result(read, 1)
	if ext == nil {
		return nil
	}
	for _, use := range *ext.Referrers() {
		test, ok := use.(*ssa.Call)
		if !ok || !kube.IsFunc(ssax.Callee(test.Common()), kube.APIErrorsPkg, "IsNotFound") {
			continue
		}
		for _, u := range *test.Referrers() {
			if iff, ok := u.(*ssa.If); ok && iff.Cond == test {
				return iff.Block().Succs[0]
			}
		}
	}
	return nil
}

// inertBefore reports whether nothing but reporting, key parsing and lister
// reads can run before call: every block that can reach it, and its own
// block up to it, holds no other effect, and no deferred call does more.
func inertBefore(call *ssa.Call) bool {
	effect := ssax.Walk([]*ssa.BasicBlock{call.Block()}, true, func(b *ssa.BasicBlock) ssax.Step {
		for _, instr := range b.Instrs {
			if instr == ssa.Instruction(call) {
				break
			}
			if !inert(instr) {
				return ssax.Stop
			}
		}
		return ssax.Expand
	})
	return !effect
}

// returnsQuietly reports whether every path from b returns with only inert
// instructions on the way and a nil error, without coming back to the read.
func returnsQuietly(b, read *ssa.BasicBlock) bool {
	quiet := true
	ssax.Reaches([]*ssa.BasicBlock{b}, func(b *ssa.BasicBlock) bool {
		if b == read {
			quiet = false
			return true
		}
		for _, instr := range b.Instrs {
			if ret, ok := instr.(*ssa.Return); ok && !nilErrors(ret) || !inert(instr) {
				quiet = false
				return true
			}
		}
		return false
	})
	return quiet
}

// nilErrors reports whether every error a return gives is the constant nil.
// In a function with defers the result goes through a local slot
// (`*t1 = nil; rundefers; t2 = *t1; return t2`): the values are the ones
// stored there last on every path to the load, and a path that stores
// none leaves what the caller cannot see.
func nilErrors(ret *ssa.Return) bool {
	isNil := func(v ssa.Value) bool {
		k, ok := v.(*ssa.Const)
		return ok && k.Value == nil
	}
	for _, v := range ret.Results {
		if !types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
			continue
		}
		load, ok := v.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			if !isNil(v) {
				return false
			}
			continue
		}
		stores, complete := dataflow.Reaching(load, func(in ssa.Instruction) bool {
			st, ok := in.(*ssa.Store)
			return ok && st.Addr == load.X
		})
		if !complete {
			return false
		}
		for _, st := range stores {
			if !isNil(st.(*ssa.Store).Val) {
				return false
			}
		}
	}
	return true
}

// inert reports whether an instruction of a sync changes nothing: local
// computation, reporting, key parsing, lister reads, and deferred or
// immediately called closures made of the same.
func inert(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.Store:
		return ssax.LocalRoot(instr.Addr) != nil
	case *ssa.MapUpdate, *ssa.Send, *ssa.Go, *ssa.Panic:
		return false
	case ssa.CallInstruction:
		common := instr.Common()
		if _, builtin := common.Value.(*ssa.Builtin); builtin {
			return true
		}
		fn := ssax.Callee(common)
		if isReporting(fn) || kube.IsKeyParser(fn) || fn != nil && kube.IsFunc(fn, "context", fn.Name()) {
			return true
		}
		if common.IsInvoke() {
			return isLister(common.Value.Type())
		}
		if fn != nil {
			if sig := fn.Type().(*types.Signature); sig.Recv() != nil && isLister(sig.Recv().Type()) {
				return true
			}
		}
		if mc, ok := common.Value.(*ssa.MakeClosure); ok {
			return inertBody(mc.Fn.(*ssa.Function))
		}
		if f, ok := common.Value.(*ssa.Function); ok && f.Parent() != nil {
			return inertBody(f)
		}
		return false
	}
	return true
}

// inertBody reports whether every instruction of an anonymous function is
// inert (a deferred `func() { logger.Info("done", time.Since(start)) }`).
func inertBody(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if !inert(instr) {
				return false
			}
		}
	}
	return true
}
