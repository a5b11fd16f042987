package handlerblocking

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// restPkg is client-go's REST client, under every typed and dynamic client.
const restPkg = "k8s.io/client-go/rest"

// The costs of each kind of wait, as messages state them.
const (
	apiCost = "event handlers run on the informer's delivery goroutine, so every later event of this handler " +
		"(and, at start, its cache sync) waits for the API server's answer; enqueue a key and make the call in a worker"
	sleepCost = "event handlers run on the informer's delivery goroutine, so every later event of this handler " +
		"waits out the delay; enqueue the key with AddAfter, or poll in a worker"
	sendCost = "event handlers run on the informer's delivery goroutine, and a send on an unbuffered channel " +
		"blocks it until a receiver is ready; enqueue to a workqueue, or send in a select with a default"
)

// A blocker says what blocks and what it costs.
type blocker struct {
	what string
	cost string
	// holders, for a Lock, are the sections that hold the mutex across an
	// API call: the report goes there, where the fix is.
	holders []holder
}

// knowledge is what the package's code says about its readers, channels
// and locks.
type knowledge struct {
	// apiReaders are fields that hold a reader bypassing
	// controller-runtime's cache (GetAPIReader, client.New).
	apiReaders map[*types.Var]bool
	// chans are the values stored in each chan-typed field.
	chans map[*types.Var][]ssa.Value
	// held says, for each mutex (a field or a package variable), where a
	// function of the package holds it across an API call.
	held map[types.Object][]holder
}

// A holder is a function that holds a mutex across a blocking call.
type holder struct {
	fn    *ssa.Function
	key   types.Object
	read  bool // held with RLock
	io    blocker
	inner ssa.Instruction // the blocking call
}

func newKnowledge(pkg *ssa.Package, funcs []*ssa.Function) *knowledge {
	k := &knowledge{
		apiReaders: make(map[*types.Var]bool),
		chans:      make(map[*types.Var][]ssa.Value),
		held:       make(map[types.Object][]holder),
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				f := ssax.FieldOfAddr(st.Addr)
				if f == nil {
					continue
				}
				if kubessa.FromAPIReader(st.Val) {
					k.apiReaders[f] = true
				}
				if _, ok := f.Type().Underlying().(*types.Chan); ok {
					k.chans[f] = append(k.chans[f], st.Val)
				}
			}
		}
	}
	for _, fn := range funcs {
		k.findHolders(fn)
	}
	return k
}

// blocking recognises an instruction that blocks the goroutine running it
// on something outside the process or on time: an API call, a sleep or
// poll, a send on an unbuffered channel, a Lock of a mutex that another
// function holds across an API call.
func (k *knowledge) blocking(instr ssa.Instruction) (blocker, bool) {
	switch instr := instr.(type) {
	case *ssa.Send:
		if k.unbuffered(instr.Chan) {
			return blocker{what: "send on an unbuffered channel", cost: sendCost}, true
		}
	case *ssa.Call, *ssa.Defer:
		common := instr.(ssa.CallInstruction).Common()
		if bl, ok := k.apiCall(common); ok {
			return bl, true
		}
		if bl, ok := waitCall(common); ok {
			return bl, true
		}
		if bl, ok := k.lockWait(instr, common); ok {
			return bl, true
		}
	}
	return blocker{}, false
}

// apiCall recognises a call that goes to the API server: a method of a
// typed or dynamic resource client that returns an error (GetLogs and
// ProxyGet only build requests), a REST request's Do, DoRaw, Stream, Watch
// or WatchList, a write through a controller-runtime client, and a read
// through one that bypasses the cache.
func (k *knowledge) apiCall(common *ssa.CallCommon) (blocker, bool) {
	callee := ssax.Callee(common)
	if callee == nil {
		return blocker{}, false // a call of a func value
	}
	sig := callee.Type().(*types.Signature)
	if sig.Recv() == nil {
		return blocker{}, false // a function, not a client's method
	}
	var recv ssa.Value
	if common.IsInvoke() {
		recv = common.Value
	} else if len(common.Args) > 0 {
		recv = common.Args[0]
	} else {
		return blocker{}, false
	}
	t := recv.Type()
	m := callee.Name()
	switch {
	case kube.IsTypedResourceClient(t) && returnsError(sig):
		return blocker{what: clientCall(recv, m) + " API call", cost: apiCost}, true
	case kube.IsDynamicResourceClient(t) && returnsError(sig):
		return blocker{what: "dynamic client " + m + " API call", cost: apiCost}, true
	case kube.Is(t, restPkg, "Request"):
		switch m {
		case "Do", "DoRaw", "Stream", "Watch", "WatchList":
			return blocker{what: "REST request " + m + " API call", cost: apiCost}, true
		}
	case isCRClient(t):
		switch m {
		case "Create", "Update", "Patch", "Delete", "DeleteAllOf", "Apply":
			return blocker{what: "controller-runtime client " + m + " API call", cost: apiCost}, true
		case "Get", "List":
			if _, name := kube.PathName(t); name == "SubResourceClient" || name == "SubResourceReader" {
				// The cache serves no subresource: Get goes to the server.
				return blocker{what: "controller-runtime subresource " + m + " API call", cost: apiCost}, true
			}
			if kubessa.FromAPIReader(recv) || k.apiReaders[ssax.LoadedField(flow.Origin(recv, flow.Conversions))] {
				return blocker{what: m + " through an uncached reader (an API call)", cost: apiCost}, true
			}
			// The manager's client reads from its cache.
		}
	}
	return blocker{}, false
}

// isCRClient reports whether t is one of controller-runtime's client
// interfaces (Client, Writer, StatusWriter, SubResourceWriter, Reader...).
func isCRClient(t types.Type) bool {
	path, _ := kube.PathName(t)
	if path != kube.CRClientPkg {
		return false
	}
	_, isIface := t.Underlying().(*types.Interface)
	return isIface
}

// clientCall spells a typed client call as written: Pods().Get when the
// client comes straight from its getter, else Get of the Pod client.
func clientCall(recv ssa.Value, method string) string {
	if c, ok := recv.(*ssa.Call); ok && c.Common().IsInvoke() {
		return c.Common().Method.Name() + "()." + method
	}
	if obj := kube.ObjectOf(recv.Type()); obj != nil {
		return kube.Kind(obj) + " client " + method
	}
	return method
}

// returnsError reports whether a method's last result is an error: the
// client methods that make a request.
func returnsError(sig *types.Signature) bool {
	r := sig.Results()
	if r.Len() == 0 {
		return false
	}
	return types.Identical(r.At(r.Len()-1).Type(), types.Universe.Lookup("error").Type())
}

// waitCall recognises time.Sleep, wait's Poll* and ExponentialBackoff*
// helpers, and the waits for informer caches (kube.WaitsForCacheSync:
// cache.WaitForCacheSync and its named and contextual forms, an informer
// factory's WaitForCacheSync).
func waitCall(common *ssa.CallCommon) (blocker, bool) {
	fn := ssax.Callee(common)
	switch {
	case kube.IsFunc(fn, "time", "Sleep"):
		return blocker{what: "time.Sleep", cost: sleepCost}, true
	case isWaitFunc(fn):
		return blocker{what: "wait." + fn.Name(), cost: sleepCost}, true
	}
	var recv types.Type
	if fn != nil && fn.Signature().Recv() != nil {
		if r := ssax.Receiver(common); r != nil {
			recv = r.Type()
		}
	}
	if kube.WaitsForCacheSync(fn, recv) {
		what := "cache." + fn.Name()
		if recv != nil {
			_, name := kube.PathName(recv)
			what = name + "." + fn.Name()
		}
		return blocker{what: what, cost: "event handlers run on the informer's delivery goroutine, and " +
			"waiting there for a cache to sync can wait for this very informer; wait for caches in Run, before the workers start"}, true
	}
	return blocker{}, false
}

// isWaitFunc reports whether fn is one of wait's functions that poll a
// condition until it holds: Poll*, ExponentialBackoff*.
func isWaitFunc(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kube.WaitPkg {
		return false
	}
	if sig, _ := fn.Type().(*types.Signature); sig == nil || sig.Recv() != nil {
		return false
	}
	return strings.HasPrefix(fn.Name(), "Poll") || strings.HasPrefix(fn.Name(), "ExponentialBackoff")
}

// unbuffered reports whether every channel ch may be was made without a
// buffer: a make in the function, one bound into a closure, or every make
// stored in the field it is loaded from. A channel of unknown making
// (a parameter, a buffered one anywhere) is not.
func (k *knowledge) unbuffered(ch ssa.Value) bool {
	switch v := flow.Origin(ch, flow.FreeVars|flow.Cells).(type) {
	case *ssa.MakeChan:
		return zero(v.Size)
	case *ssa.UnOp:
		f := ssax.LoadedField(v)
		if f == nil || len(k.chans[f]) == 0 {
			return false
		}
		for _, val := range k.chans[f] {
			mc, ok := val.(*ssa.MakeChan)
			if !ok || !zero(mc.Size) {
				return false // buffered, or made elsewhere
			}
		}
		return true
	}
	return false
}

// zero reports whether v is the constant 0.
func zero(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return false
	}
	n, exact := constant.Int64Val(c.Value)
	return exact && n == 0
}

// lockKey names the mutex a Lock call's receiver addresses: a struct field
// (embedded or not) or a package variable; nil for a local or unknown one.
func lockKey(v ssa.Value) types.Object {
	if f := ssax.FieldOfAddr(v); f != nil {
		return f
	}
	if g, ok := v.(*ssa.Global); ok {
		return g.Object()
	}
	return nil
}

// lockCall recognises a call of sync.Mutex's or sync.RWMutex's Lock or
// RLock (read says which), and the mutex it locks.
func lockCall(common *ssa.CallCommon, names ...string) (key types.Object, read bool, ok bool) {
	fn := ssax.Callee(common)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" || common.IsInvoke() || len(common.Args) == 0 {
		return nil, false, false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil || !(kube.Is(recv.Type(), "sync", "Mutex") || kube.Is(recv.Type(), "sync", "RWMutex")) {
		return nil, false, false
	}
	for _, n := range names {
		if fn.Name() == n {
			key = lockKey(common.Args[0])
			return key, strings.HasPrefix(n, "R"), key != nil
		}
	}
	return nil, false, false
}

// findHolders records where fn locks a mutex and, before unlocking it
// (a deferred Unlock runs at return, so it does not end the section),
// makes an API call of its own.
func (k *knowledge) findHolders(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			key, read, ok := lockCall(call.Common(), "Lock", "RLock")
			if !ok {
				continue
			}
			if h, ok := k.heldAcross(b, i+1, key, fn); ok {
				h.read, h.key = read, key
				k.held[key] = append(k.held[key], h)
			}
		}
	}
}

// heldAcross looks from instruction i of block b on, along every path,
// until the mutex key is unlocked, for an API call.
func (k *knowledge) heldAcross(b *ssa.BasicBlock, i int, key types.Object, fn *ssa.Function) (holder, bool) {
	var h holder
	scan := func(instrs []ssa.Instruction) ssaStep {
		for _, instr := range instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if k2, _, ok := lockCall(call.Common(), "Unlock", "RUnlock"); ok && k2 == key {
				return unlocked
			}
			if bl, ok := k.apiCall(call.Common()); ok {
				h = holder{fn: fn, io: bl, inner: instr}
				return found
			}
		}
		return open
	}
	switch scan(b.Instrs[i:]) {
	case found:
		return h, true
	case unlocked:
		return holder{}, false
	}
	ok := ssax.Walk(b.Succs, false, func(bb *ssa.BasicBlock) ssax.Step {
		switch scan(bb.Instrs) {
		case found:
			return ssax.Stop
		case unlocked:
			return ssax.Prune
		}
		return ssax.Expand
	})
	return h, ok
}

// ssaStep is what scanning a run of instructions found.
type ssaStep int

const (
	open     ssaStep = iota // neither: the lock is still held
	unlocked                // the mutex is unlocked
	found                   // an API call while it is held
)

// lockWait recognises a Lock (or RLock) of a mutex that another function of
// the package holds across an API call (with Lock, for an RLock), and
// returns those sections.
func (k *knowledge) lockWait(instr ssa.Instruction, common *ssa.CallCommon) (blocker, bool) {
	key, read, ok := lockCall(common, "Lock", "RLock")
	if !ok {
		return blocker{}, false
	}
	var hs []holder
	for _, h := range k.held[key] {
		if h.fn == instr.Parent() {
			continue // its own section: the API call is reported itself
		}
		if read && h.read {
			continue // readers do not wait for readers
		}
		hs = append(hs, h)
	}
	if len(hs) == 0 {
		return blocker{}, false
	}
	return blocker{what: calleeName(common) + " of " + key.Name(), holders: hs}, true
}

// calleeName is the method a call names: Lock, RLock.
func calleeName(common *ssa.CallCommon) string {
	if fn := ssax.Callee(common); fn != nil {
		return fn.Name()
	}
	return "call"
}

// shortPos keeps the file name and line of a position.
func shortPos(pos string) string {
	if i := strings.LastIndex(pos, "/"); i >= 0 {
		pos = pos[i+1:]
	}
	if i := strings.LastIndex(pos, ":"); i >= 0 && strings.Count(pos, ":") > 1 {
		pos = pos[:i] // drop the column
	}
	return pos
}
