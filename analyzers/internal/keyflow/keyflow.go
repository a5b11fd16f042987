// Package keyflow follows work-queue keys through a package's SSA form: from
// the Get() that takes a key, along every path of the function and of the
// package helpers the key is handed to, to the queue calls that settle it
// (Done, Forget, a re-queue). The forget and queuedone analyzers are two
// rules over the same walk, so it lives here once.
//
// A worker is usually split over several functions (processNextWorkItem
// calls syncHandler and handleErr), so a helper that settles the key on some
// path is a settlement at its call site and is then checked on its own: a
// leak is reported once, at the return where it happens.
package keyflow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// An Item is one key taken from a workqueue with Get().
type Item struct {
	Fn       *ssa.Function
	Get      ssa.CallInstruction
	Key      ssa.Value // the first result of Get, nil if discarded
	Shutdown ssa.Value // the second result, nil if discarded
	Queue    kube.Queue
}

// A Rule says what settles a key.
type Rule struct {
	// Methods are the queue methods that settle a key applied to them.
	Methods map[string]bool
	// BadKeySettles makes the failure edge of a comma-ok type assertion on
	// the key a settlement: a key of an unexpected type is one the worker
	// never rate-limited (it re-queues the asserted value), so it has no
	// limiter entry to forget. It still has to be marked Done.
	BadKeySettles bool
}

// A Leak is a path on which a key is not settled: it ends at Return, or
// loops back to the Get when Return is nil.
type Leak struct {
	Item   *Item
	Fn     *ssa.Function // the function the path ends in
	Return *ssa.Return
	// Keys are the values that hold the key in Fn.
	Keys map[ssa.Value]bool
	// Call, when set, hands the key to Via, a function of another package
	// that returns at Exit ("file:line") without settling it; the leak is
	// reported at the call.
	Call ssa.CallInstruction
	Via  *types.Func
	Exit string
}

// Pos is where the leak is reported: the call of another package's
// helper, the return, or the Get.
func (l Leak) Pos() token.Pos {
	if l.Call != nil {
		return l.Call.Pos()
	}
	if l.Return != nil {
		return l.Return.Pos()
	}
	return l.Item.Get.Pos()
}

// Analysis holds the memoised summaries of one package.
type Analysis struct {
	pkg     *ssa.Package
	touches map[summaryKey]int // 0 unknown, 1 in progress, 2 no, 3 yes
	// Imported, when set, is what a function of another package does with
	// a key handed to its parameter i (the analyzer's facts, summarised
	// under its rule by Summarise): nothing is assumed of a function it
	// knows, unlike of code out of sight.
	Imported func(fn *types.Func, param int) (Effect, bool)
}

// seed is where a key enters a helper: a parameter or a captured variable.
type seed struct {
	fn      *ssa.Function
	freeVar bool
	index   int
}

type summaryKey struct {
	seed
	rule string
}

// New prepares an analysis of pkg.
func New(pkg *ssa.Package) *Analysis {
	return &Analysis{pkg: pkg, touches: make(map[summaryKey]int)}
}

// gets finds every Get() on a workqueue in funcs (Package.Items).
func gets(funcs []*ssa.Function) []*Item {
	var items []*Item
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				q, method, _, ok := QueueOp(call.Common())
				if !ok || method != "Get" {
					continue
				}
				it := &Item{Fn: fn, Get: call, Queue: q}
				for _, ref := range *call.Referrers() {
					if ext, ok := ref.(*ssa.Extract); ok {
						switch ext.Index {
						case 0:
							it.Key = ext
						case 1:
							it.Shutdown = ext
						}
					}
				}
				if it.Key == nil {
					continue // the key is dropped on the floor: nothing to follow
				}
				items = append(items, it)
			}
		}
	}
	return items
}

// QueueOp recognises a call of a workqueue method and returns the queue, the
// method name and the arguments without the receiver.
func QueueOp(common *ssa.CallCommon) (kube.Queue, string, []ssa.Value, bool) {
	fn := ssax.Callee(common)
	if fn == nil {
		return kube.Queue{}, "", nil, false
	}
	if common.IsInvoke() {
		q, name, ok := kube.QueueCall(fn, common.Value.Type())
		return q, name, common.Args, ok
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || len(common.Args) == 0 {
		return kube.Queue{}, "", nil, false
	}
	q, name, ok := kube.QueueCall(fn, sig.Recv().Type())
	return q, name, common.Args[1:], ok // the receiver is the first argument
}

// Equivalent returns the values of seeds' functions that hold the same key:
// the seeds and their conversions, type assertions and phis. A variable
// captured by a closure lives in a heap cell (an Alloc, or a FreeVar in the
// closure): a cell the key is stored to belongs to the set too, and so do
// the loads from it.
func Equivalent(seeds ...ssa.Value) map[ssa.Value]bool {
	keys, _ := flowOf(seeds)
	return keys
}

// flowOf computes the key set (see Equivalent) and the holders: values that
// contain the key without being it — a struct built around it
// (pvcData{pvcKey: key}), a slice it was appended to. Handing a holder over
// hands the key over.
func flowOf(seeds []ssa.Value) (keys, holders map[ssa.Value]bool) {
	keys = make(map[ssa.Value]bool)
	holders = make(map[ssa.Value]bool)
	type item struct {
		v      ssa.Value
		holder bool
	}
	var work []item
	add := func(v ssa.Value, holder bool) {
		set := keys
		if holder {
			set = holders
		}
		if !set[v] {
			set[v] = true
			work = append(work, item{v, holder})
		}
	}
	for _, s := range seeds {
		add(s, false)
	}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		v := it.v
		// The same key, or holder, under a conversion, a φ or a load from
		// the cell it is stored in; a holder asserted to another type is
		// not known to hold the key.
		same := flow.Conversions | flow.Phis | flow.Loads
		if !it.holder {
			same |= flow.Asserts
		}
		for _, s := range flow.Succs(v, same) {
			add(s, it.holder)
		}
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			switch r := ref.(type) {
			case *ssa.Store:
				if r.Val != v {
					continue
				}
				if cell, ok := r.Addr.(*ssa.Alloc); ok && !it.holder {
					add(cell, false) // a captured variable's cell
				} else if root := ssax.LocalRoot(r.Addr); root != nil {
					add(root, true) // a field or element of a local value
				}
			case *ssa.Slice:
				if it.holder {
					add(r, true)
				}
			case *ssa.Call:
				if b, ok := r.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
					add(r, true)
				}
			case *ssa.TypeAssert:
				// The asserted key of `k, ok := key.(string)`, used where
				// ok holds; the other assertions are flow.Asserts.
				if it.holder || !r.CommaOk {
					continue
				}
				for _, tr := range *r.Referrers() {
					if ext, ok := tr.(*ssa.Extract); ok && ext.Index == 0 {
						add(ext, false)
					}
				}
			}
		}
	}
	return keys, holders
}

// Leaks returns the unsettled paths from it's Get (past the shutdown check),
// one per site: a return of its function or of a helper it hands the key
// to, or the loop back to the Get.
func (a *Analysis) Leaks(it *Item, rule Rule) []Leak {
	w := &walker{a: a, rule: rule, item: it, exits: make(map[seed]*[]site)}
	b := it.Get.Block()
	start := 0
	for i, instr := range b.Instrs {
		if instr == it.Get {
			start = i + 1
		}
	}
	var leaks []Leak
	type where struct {
		fn   *ssa.Function
		ret  *ssa.Return
		call ssa.CallInstruction
	}
	seen := make(map[where]bool)
	for _, s := range w.walk(it.Fn, newKeyFlow(it.Key), b, start) {
		k := where{s.fn, s.ret, s.call}
		if seen[k] {
			continue
		}
		seen[k] = true
		leaks = append(leaks, Leak{Item: it, Fn: s.fn, Return: s.ret, Keys: s.keys, Call: s.call, Via: s.via, Exit: s.exit})
	}
	return leaks
}

func (s seed) value() ssa.Value {
	if s.freeVar {
		return s.fn.FreeVars[s.index]
	}
	return s.fn.Params[s.index]
}

// Reaches reports whether the key of it is handed to the queue method on
// some path: in its function or a helper it passes the key to.
func (a *Analysis) Reaches(it *Item, method string) bool {
	return a.mentions(it.Fn, Equivalent(it.Key), Rule{Methods: map[string]bool{method: true}}, method)
}

// mentions reports whether fn applies a rule method to one of keys anywhere,
// directly or through a helper.
func (a *Analysis) mentions(fn *ssa.Function, keys map[ssa.Value]bool, rule Rule, ruleName string) bool {
	return a.mentionsIn(fn, keys, rule, ruleName, nil)
}

// mentionsBesides is mentions in the function of call, call left out.
func (a *Analysis) mentionsBesides(call ssa.CallInstruction, keys map[ssa.Value]bool, rule Rule) bool {
	return a.mentionsIn(call.Parent(), keys, rule, ruleName(rule), call)
}

func (a *Analysis) mentionsIn(fn *ssa.Function, keys map[ssa.Value]bool, rule Rule, ruleName string, except ssa.CallInstruction) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && call != except && a.callMentions(call, keys, rule, ruleName) {
				return true
			}
		}
	}
	return false
}

// callMentions reports whether call applies a rule method to one of keys,
// itself or through the helper it calls.
func (a *Analysis) callMentions(call ssa.CallInstruction, keys map[ssa.Value]bool, rule Rule, ruleName string) bool {
	common := call.Common()
	if _, method, args, ok := QueueOp(common); ok {
		return rule.Methods[method] && len(args) > 0 && keys[args[0]]
	}
	if a.importedMentions(common, keys, rule) {
		return true
	}
	for _, s := range a.seedsOf(common, keys) {
		if a.touchesKey(s, rule, ruleName) {
			return true
		}
	}
	return false
}

// SharedReturn reports whether the return l ends at is also reached by a
// path on which the key was settled by rule: code added before that return
// would run on the settled path too (a Forget after an AddRateLimited
// erases the backoff it asked for), so no edit there is right for l alone.
// A path is followed from each settling call to the return, not through
// the Get that takes the next key.
func (a *Analysis) SharedReturn(l Leak, rule Rule) bool {
	if l.Return == nil {
		return false
	}
	target := l.Return.Block()
	var stop *ssa.BasicBlock
	if l.Fn == l.Item.Fn {
		stop = l.Item.Get.Block()
	}
	name := ruleName(rule)
	for _, b := range l.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || !a.callMentions(call, l.Keys, rule, name) {
				continue
			}
			if reaches(b, target, stop) {
				return true
			}
		}
	}
	return false
}

// reaches reports whether control in from reaches to, from's own rest
// included, without entering stop.
func reaches(from, to, stop *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{from: true}
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == to {
			return true
		}
		for _, s := range b.Succs {
			if !seen[s] && s != stop {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return false
}

// touchesKey is the memoised summary: does the helper apply a rule method
// to the key entering at s, on some path?
func (a *Analysis) touchesKey(s seed, rule Rule, ruleName string) bool {
	k := summaryKey{s, ruleName}
	switch a.touches[k] {
	case 1, 2:
		return false // in progress (recursion), or known not to
	case 3:
		return true
	}
	a.touches[k] = 1
	res := a.mentions(s.fn, Equivalent(s.value()), rule, ruleName)
	a.touches[k] = 2
	if res {
		a.touches[k] = 3
	}
	return res
}

// seedsOf returns where keys enter the package helper a call invokes: its
// parameters for arguments, its free variables for a closure's bindings.
func (a *Analysis) seedsOf(common *ssa.CallCommon, keys map[ssa.Value]bool) []seed {
	if common.IsInvoke() {
		return nil
	}
	var out []seed
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		fn := mc.Fn.(*ssa.Function)
		if fn.Pkg == a.pkg && fn.Blocks != nil {
			for i, b := range mc.Bindings {
				if keys[b] {
					out = append(out, seed{fn: fn, freeVar: true, index: i})
				}
			}
		}
	}
	fn, offset := ssax.Func(a.pkg, common.Value)
	if fn == nil {
		return out // library code, or a dynamic call
	}
	for i, arg := range common.Args {
		if keys[arg] && i+offset < len(fn.Params) {
			out = append(out, seed{fn: fn, index: i + offset})
		}
	}
	return out
}
