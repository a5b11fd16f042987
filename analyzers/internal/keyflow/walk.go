package keyflow

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// A site is where an unsettled path is reported: a return of fn, or, with
// ret nil, the loop back to the Get.
type site struct {
	fn   *ssa.Function
	ret  *ssa.Return
	keys map[ssa.Value]bool
	// call, via and exit, when call is set: the path hands the key to
	// via, of another package, which returns at exit without settling it.
	call ssa.CallInstruction
	via  *types.Func
	exit string
}

// walker searches the paths of a function for an unsettled key.
type walker struct {
	a    *Analysis
	rule Rule
	item *Item
	// exits memoises the unsettled exits of helpers; nil while in progress.
	exits map[seed]*[]site
}

// outcome is what a call does to the key.
type outcome int

const (
	passes  outcome = iota // the key goes by untouched
	settled                // the key is settled on every path
	partial                // a helper settles it on some paths only
)

// walk explores the paths from instruction start of block b and returns the
// sites of the unsettled ones.
//
// A helper that settles the key on some paths only does not end a path: the
// caller may settle it afterwards (a sync that re-queues on one branch, and
// a caller that forgets on success). The path goes on carrying the helper's
// unsettled returns as the blame, and if it ends unsettled, the blame is
// what is reported: the `if err == nil { return }` of a handleErr helper,
// not the caller's final return.
func (w *walker) walk(fn *ssa.Function, kf *keyFlow, b *ssa.BasicBlock, start int) []site {
	keys := kf.keys
	type cursor struct {
		b     *ssa.BasicBlock
		i     int
		blame *[]site
	}
	type visit struct {
		b     *ssa.BasicBlock
		blame *[]site
	}
	var sites []site
	seen := make(map[visit]bool)
	work := []cursor{{b: b, i: start}}
	if start == 0 {
		seen[visit{b, nil}] = true
	}
	endAt := func(s site, blame *[]site) {
		if blame != nil {
			sites = append(sites, *blame...)
		} else {
			sites = append(sites, s)
		}
	}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		stop := false
		for _, instr := range c.b.Instrs[c.i:] {
			if fn == w.item.Fn && instr == w.item.Get {
				endAt(site{fn: fn, keys: keys}, c.blame) // back to the next Get
				stop = true
				break
			}
			switch out, blame := w.effect(instr, kf); out {
			case settled:
				stop = true
			case partial:
				c.blame = blame
			}
			if stop {
				break
			}
			switch instr := instr.(type) {
			case *ssa.Return:
				endAt(site{fn: fn, ret: instr, keys: keys}, c.blame)
				stop = true
			case *ssa.Panic:
				stop = true // panics are out of scope
			}
			if stop {
				break
			}
		}
		if stop {
			continue
		}
		for i, s := range c.b.Succs {
			if w.shutdownEdge(fn, c.b, i) || w.badKeyEdge(c.b, i, keys) || exhaustedSwitch(c.b, i) {
				continue
			}
			v := visit{s, c.blame}
			if seen[v] {
				continue
			}
			seen[v] = true
			work = append(work, cursor{b: s, blame: c.blame})
		}
	}
	return sites
}

// effect says what instr does to the key: a rule method of a queue applied
// to it (called or deferred) settles it; a package helper handed the key
// settles it on all, some or none of its paths; code we cannot see that is
// handed both the key and a queue is assumed to settle it.
func (w *walker) effect(instr ssa.Instruction, kf *keyFlow) (outcome, *[]site) {
	keys := kf.keys
	if handsOver(instr, kf) {
		return settled, nil // another goroutine or structure takes over the key
	}
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return passes, nil
	}
	common := call.Common()
	if _, method, args, ok := QueueOp(common); ok {
		if w.rule.Methods[method] && len(args) > 0 && keys[args[0]] {
			return settled, nil
		}
		return passes, nil
	}
	if e, callee, ok := w.imported(common, keys); ok {
		switch e.Outcome {
		case Always:
			return settled, nil
		case Some:
			if w.a.mentionsBesides(call, keys, w.rule) {
				// The caller settles the key itself on some path: which
				// of the helper's paths it completes is a correlation of
				// conditions (`if err == nil { Forget }` after a helper
				// that re-queues errors) this walk does not see.
				return settled, nil
			}
			// The helper's unsettled return is in another package: the
			// call is the blame, naming it.
			return partial, &[]site{{fn: call.Parent(), call: call, via: callee, exit: e.Exit, keys: keys}}
		case Never:
			return passes, nil // whatever else it is given (the queue)
		}
	}
	seeds := w.a.seedsOf(common, keys)
	for _, s := range seeds {
		exits := w.helperExits(s)
		if len(*exits) == 0 {
			return settled, nil // settled or handed over on every path of the helper
		}
		if w.a.touchesKey(s, w.rule, ruleName(w.rule)) {
			return partial, exits // the helper settles it on some paths only
		}
	}
	if len(seeds) > 0 || w.a.isLocal(common) {
		return passes, nil
	}
	// Another package's function, an interface method or a func value:
	// if it is given the queue as well as the key, it may settle it.
	hasKey, hasQueue := false, false
	for _, arg := range common.Args {
		if keys[arg] {
			hasKey = true
		}
		if _, isQueue := kube.QueueOf(arg.Type()); isQueue {
			hasQueue = true
		}
	}
	if common.IsInvoke() {
		if _, isQueue := kube.QueueOf(common.Value.Type()); isQueue {
			hasQueue = true
		}
	}
	if hasKey && hasQueue {
		return settled, nil
	}
	return passes, nil
}

// handsOver reports whether instr gives the key away: sent on a channel,
// put in a map, stored in the heap (not a local cell) or returned. Whatever receives
// it (a worker pool, a batching store) settles it, out of our sight.
func handsOver(instr ssa.Instruction, f *keyFlow) bool {
	switch instr := instr.(type) {
	case *ssa.Send:
		return f.carries(instr.X)
	case *ssa.MapUpdate:
		return f.carries(instr.Key) || f.carries(instr.Value)
	case *ssa.Store:
		// Into a local value (a captured variable's cell, the array of a
		// variadic call such as fmt.Errorf("%v", key)) is not a hand-over.
		return f.carries(instr.Val) && ssax.LocalRoot(instr.Addr) == nil
	case *ssa.Return:
		for _, r := range instr.Results {
			if f.carries(r) {
				return true // a queue adapter's Get: its caller owns the key
			}
		}
	case *ssa.Select:
		for _, st := range instr.States {
			if st.Dir == types.SendOnly && f.carries(st.Send) {
				return true // one branch hands it over; the others must settle it themselves
			}
		}
	}
	return false
}

// keyFlow is the key set of a function and the values holding the key.
type keyFlow struct {
	keys, holders map[ssa.Value]bool
}

func newKeyFlow(seeds ...ssa.Value) *keyFlow {
	k, h := flowOf(seeds)
	return &keyFlow{keys: k, holders: h}
}

func (f *keyFlow) carries(v ssa.Value) bool { return f.keys[v] || f.holders[v] }

// helperExits returns the unsettled exits of a helper entered with the key
// at s (memoised; a recursive helper is assumed to settle).
func (w *walker) helperExits(s seed) *[]site {
	if e, ok := w.exits[s]; ok {
		if e == nil {
			return new([]site) // recursion: assume it settles
		}
		return e
	}
	w.exits[s] = nil
	var sites []site
	for _, st := range w.walk(s.fn, newKeyFlow(s.value()), s.fn.Blocks[0], 0) {
		if st.ret != nil {
			sites = append(sites, st)
		}
	}
	w.exits[s] = &sites
	return &sites
}

// shutdownEdge reports whether edge i of b is taken when Get reported a
// shut-down queue: there is no key to settle on it.
func (w *walker) shutdownEdge(fn *ssa.Function, b *ssa.BasicBlock, i int) bool {
	if fn != w.item.Fn || w.item.Shutdown == nil {
		return false
	}
	cond, i, ok := branch(b, i)
	return ok && cond == w.item.Shutdown && i == 0
}

// badKeyEdge reports whether edge i of b is taken for a malformed key, when
// the rule counts that as settling: the failure edge of a comma-ok type
// assertion on the key, or the error edge of a key parser
// (cache.SplitMetaNamespaceKey) applied to it. A malformed key fails the
// same way every time, before any code could rate-limit it.
func (w *walker) badKeyEdge(b *ssa.BasicBlock, i int, keys map[ssa.Value]bool) bool {
	if !w.rule.BadKeySettles {
		return false
	}
	cond, i, ok := branch(b, i)
	if !ok {
		return false
	}
	switch c := cond.(type) {
	case *ssa.Extract:
		ta, ok := c.Tuple.(*ssa.TypeAssert)
		return ok && c.Index == 1 && keys[ta.X] && i == 1
	case *ssa.BinOp:
		err := c.X
		if k, ok := err.(*ssa.Const); ok && k.IsNil() {
			err = c.Y
		} else if k, ok := c.Y.(*ssa.Const); !ok || !k.IsNil() {
			return false
		}
		if !parsedKeyError(err, keys) {
			return false
		}
		return c.Op == token.NEQ && i == 0 || c.Op == token.EQL && i == 1
	}
	return false
}

// parsedKeyError reports whether v is the error a key parser returned for
// one of keys.
func parsedKeyError(v ssa.Value, keys map[ssa.Value]bool) bool {
	ext, ok := v.(*ssa.Extract)
	if !ok {
		return false
	}
	call, ok := ext.Tuple.(*ssa.Call)
	if !ok || ext.Index != call.Common().Signature().Results().Len()-1 {
		return false
	}
	fn := ssax.Callee(call.Common())
	if fn == nil || !kube.IsKeyParser(fn) || len(call.Common().Args) != 1 {
		return false
	}
	return keys[call.Common().Args[0]]
}

// branch returns the condition of the If ending b, and i adjusted so that
// 0 is the edge taken when that condition (without a leading !) holds.
func branch(b *ssa.BasicBlock, i int) (ssa.Value, int, bool) {
	if len(b.Instrs) == 0 {
		return nil, i, false
	}
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, i, false
	}
	cond := iff.Cond
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		cond, i = u.X, 1-i
	}
	return cond, i, true
}

// exhaustedSwitch reports whether edge i of b is the fall-through of a
// switch (an if-chain comparing one value with constants) whose cases name
// every constant of the value's package-defined type: `switch action { case
// forgetItem: ...; case requeueItem: ... }` has no feasible default path.
func exhaustedSwitch(b *ssa.BasicBlock, i int) bool {
	v, c, ok := equalsConst(b)
	if !ok || i != 1 {
		return false
	}
	all := returnedConstants(v)
	if all == nil {
		all = enumConstants(v.Type())
	}
	if len(all) < 2 {
		return false
	}
	covered := []constant.Value{c}
	for cur := b; len(cur.Preds) == 1; {
		p := cur.Preds[0]
		pv, pc, ok := equalsConst(p)
		if !ok || pv != v || p.Succs[1] != cur {
			break
		}
		covered = append(covered, pc)
		cur = p
	}
	for _, want := range all {
		found := false
		for _, have := range covered {
			if constant.Compare(want, token.EQL, have) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// equalsConst recognises a block that ends in `if v == C`.
func equalsConst(b *ssa.BasicBlock) (ssa.Value, constant.Value, bool) {
	cond, i, ok := branch(b, 0)
	if !ok || i != 0 {
		return nil, nil, false
	}
	op, ok := cond.(*ssa.BinOp)
	if !ok || op.Op != token.EQL {
		return nil, nil, false
	}
	if c, ok := op.Y.(*ssa.Const); ok && c.Value != nil {
		return op.X, c.Value, true
	}
	if c, ok := op.X.(*ssa.Const); ok && c.Value != nil {
		return op.Y, c.Value, true
	}
	return nil, nil, false
}

// returnedConstants returns the values v can take when it is the result of
// a call to a package function whose every return is a constant (the
// garbage collector's attemptToDeleteWorker returns forgetItem or
// requeueItem), or nil.
func returnedConstants(v ssa.Value) []constant.Value {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	fn := call.Common().StaticCallee()
	if fn == nil || fn.Blocks == nil || fn.Signature.Results().Len() != 1 {
		return nil
	}
	var out []constant.Value
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		c, ok := ret.Results[0].(*ssa.Const)
		if !ok || c.Value == nil {
			return nil // a computed result: any value is possible
		}
		out = append(out, c.Value)
	}
	return out
}

// enumConstants returns the values of the constants declared with type t
// in t's package, when t is a defined integer or string type.
func enumConstants(t types.Type) []constant.Value {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || !named.Obj().Pkg().Complete() {
		// A package known only from other packages' export data holds
		// only the constants they mention: the enumeration would be
		// short, and it would depend on what else was decoded.
		return nil
	}
	basic, ok := named.Underlying().(*types.Basic)
	if !ok || basic.Info()&(types.IsInteger|types.IsString) == 0 {
		return nil
	}
	var out []constant.Value
	scope := named.Obj().Pkg().Scope()
	for _, n := range scope.Names() {
		if c, ok := scope.Lookup(n).(*types.Const); ok && types.Identical(c.Type(), t) {
			out = append(out, c.Val())
		}
	}
	return out
}

// isLocal reports whether a call statically invokes a function of the package.
func (a *Analysis) isLocal(common *ssa.CallCommon) bool {
	fn := common.StaticCallee()
	return fn != nil && fn.Pkg == a.pkg
}

func ruleName(r Rule) string {
	name := ""
	for _, m := range []string{"Done", "Forget", "AddRateLimited", "AddAfter", "Add"} {
		if r.Methods[m] {
			name += m + ","
		}
	}
	return name
}
