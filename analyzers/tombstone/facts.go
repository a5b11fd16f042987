package tombstone

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/crash"
)

// Deleted objects cross package boundaries inside a module two ways, and
// each has a fact (analyzers/internal/summary):
//
//   - a delete handler hands its object to a helper of another package of
//     the module (`util.PodFromObj(obj)`), which may assert it to a
//     concrete kind without a tombstone check: HelperFact, on the helper,
//     says what it does to a tombstone arriving in each of its interface{}
//     parameters, and the finding is at the handler's call;
//   - a watcher package of the module registers the DeleteFunc itself and
//     passes the object to a method of an interface it declares
//     (`h.OnDelete(obj)`), which the controllers of other packages
//     implement: WatcherFact, on the watcher package, names those methods,
//     and every method implementing one is a delete handler there.

// HelperFact is what a function or method of a package of the analysed
// modules does with a cache.DeletedFinalStateUnknown tombstone arriving in
// its interface{} parameters, as far as its code and the facts of the
// helpers it calls show. A function without the fact is unknown code,
// which may unwrap the tombstone.
type HelperFact struct {
	Params []ParamEffect
}

// A ParamEffect is what a function does with a tombstone in one parameter.
type ParamEffect struct {
	// Param is the parameter's index in the signature, the receiver not
	// counted.
	Param int
	// Settles: it unwraps or filters out the tombstone, or hands it to
	// code that may (unknown code, a field, a channel).
	Settles bool
	// Panics, if set, says where an unchecked type assertion panics on it
	// ("asserts the object to *v1.Pod without a tombstone check
	// (pods.go:14)").
	Panics string
	// Drops, if set, says where it is dropped: a comma-ok assertion or a
	// type switch that never considers it, a key function that fails on
	// it.
	Drops string
	// Enqueues, if set, is the parameter holding a work queue that all
	// the function does with the object is add its key to, reporting
	// aside (`func Enqueue(obj any, q workqueue.RateLimitingInterface)`):
	// link 2 of the harmless-drop proof (missing.go) across packages. A
	// drop there loses nothing more than the queued key.
	Enqueues *QueueParam
}

// A QueueParam is a helper's parameter holding a work queue.
type QueueParam struct {
	Param int // the index in the signature, the receiver not counted
}

// AFact implements analysis.Fact.
func (*HelperFact) AFact() {}

func (f *HelperFact) String() string {
	var parts []string
	for _, p := range f.Params {
		s := fmt.Sprintf("param %d:", p.Param)
		if p.Settles {
			s += " settles"
		}
		if p.Panics != "" {
			s += " panics: " + p.Panics
		}
		if p.Drops != "" {
			s += " drops: " + p.Drops
		}
		if p.Enqueues != nil {
			s += fmt.Sprintf(" enqueues to param %d", p.Enqueues.Param)
		}
		if !p.Settles && p.Panics == "" && p.Drops == "" {
			s += " leaves it"
		}
		parts = append(parts, s)
	}
	return "tombstone helper(" + strings.Join(parts, "; ") + ")"
}

// settlesCaller reports whether, past a call of the helper, the caller's
// object is dealt with: unwrapped, or lost where the helper is reported.
func (p ParamEffect) settlesCaller() bool {
	return p.Settles || p.Panics != "" || p.Drops != ""
}

// WatcherFact, on a package of the analysed modules, names the interface
// methods the package calls with the object a delete handler received,
// tombstone and all: their implementations are delete handlers. A package
// that unwraps the tombstone before the call has no such method.
type WatcherFact struct {
	Methods []DeliveredParam
}

// A DeliveredParam is one parameter of an interface method that receives
// deleted objects.
type DeliveredParam struct {
	Pkg    string // path of the package that declares the interface
	Type   string // the interface's type name
	Method string
	Param  int // index among the method's parameters
}

// AFact implements analysis.Fact.
func (*WatcherFact) AFact() {}

func (f *WatcherFact) String() string {
	var parts []string
	for _, d := range f.Methods {
		parts = append(parts, fmt.Sprintf("%s.%s.%s param %d", d.Pkg, d.Type, d.Method, d.Param))
	}
	return "tombstone watcher(" + strings.Join(parts, "; ") + ")"
}

// harm is what a finding does to the deletion.
type harm int

const (
	harmPanic harm = iota
	harmDrop
)

// An effect is what a function does with a tombstone in one parameter:
// the first panic and the first drop its code shows, each as a phrase
// saying where (the ParamEffect of a HelperFact).
type effect struct {
	panics, drops string
}

func (e *effect) record(h harm, what string) {
	switch {
	case h == harmPanic && e.panics == "":
		e.panics = what
	case h == harmDrop && e.drops == "":
		e.drops = what
	}
}

// found reports a finding at pos, or, when o collects the effect of a
// helper, records what it does there.
func (c *checker) found(o origin, h harm, pos token.Pos, what string, fix func() *analysis.SuggestedFix, format string, args ...any) {
	if o.collect != nil {
		o.collect.record(h, what+" ("+c.where(pos)+")")
		return
	}
	var sf *analysis.SuggestedFix
	if fix != nil {
		sf = fix()
	}
	c.report(pos, sf, format, args...)
}

// where names a position in a message about another package: file and
// line, which the reader can find from the helper's name.
func (c *checker) where(pos token.Pos) string { return summary.Where(c.pass.Fset, pos) }

// effectOf is what t.fn does with a tombstone in t.param, following its
// package's helpers and the facts of other packages' helpers. A recursive
// call sees what is known so far.
func (c *checker) effectOf(t target) *effect {
	if e, ok := c.effects[t]; ok {
		return e
	}
	e := &effect{}
	c.effects[t] = e
	if t.param >= len(t.fn.Params) {
		return e
	}
	f := solve(t.fn, mayBeTombstone, []key{{t.fn.Params[t.param], -1}}, c.hooks())
	o := origin{collect: e}
	f.walkCalls(func(instr ssa.Instruction, st state) {
		c.checkHelperCall(f, instr, st, o)
	}, func(instr ssa.Instruction, st state) {
		c.checkTombstoneUse(f, instr, st, o)
	})
	return e
}

// checkHelperCall reports a call that hands a possible tombstone to a
// helper of another package of the module that panics on it or drops it.
// When o collects a helper's effect, the package's own helpers count too
// (from a handler, those are visited and reported inside).
func (c *checker) checkHelperCall(f *flow, instr ssa.Instruction, st state, o origin) {
	common := instr.(ssa.CallInstruction).Common()
	for i, arg := range common.Args {
		if !f.tracked(arg, st) {
			continue
		}
		var name, panics, drops string
		if callee, offset := c.localCallee(common); callee != nil {
			if o.collect == nil {
				return // visited from the handler: reported inside
			}
			obj, _ := callee.Object().(*types.Func)
			if obj == nil {
				return // a func literal: reported inside when visited
			}
			e := c.effectOf(target{callee, i + offset, mayBeTombstone})
			name, panics, drops = ssax.FuncName(obj, c.pass.Pkg), e.panics, e.drops
		} else if p, ok := c.helperEffect(common, i); ok {
			name, panics, drops = ssax.FuncName(ssax.Callee(common), c.pass.Pkg), p.Panics, p.Drops
		} else {
			continue
		}
		switch {
		case panics != "" && o.collect != nil:
			o.collect.record(harmPanic, "passes the object to "+name+", which "+panics)
			return
		case drops != "" && o.collect != nil:
			if !c.consideredAfter(f, instr) {
				o.collect.record(harmDrop, "passes the object to "+name+", which "+drops)
			}
			return
		case panics != "":
			c.found(o, harmPanic, instr.Pos(), "passes the object to "+name+", which "+panics, nil,
				"%s panics on the cache.DeletedFinalStateUnknown tombstone a delete handler receives after a missed watch event: it %s%s", name, panics, o.context())
			return
		case drops != "" && !o.root.dropHarmless && !c.consideredAfter(f, instr) && !c.rootDropLosesNothing(o):
			c.found(o, harmDrop, instr.Pos(), "passes the object to "+name+", which "+drops, nil,
				"the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: %s %s%s", name, drops, o.context())
			return
		}
	}
}

// consideredAfter reports whether, after instr, the function deals with a
// tombstone itself (`key, err := util.KeyOf(obj); if err != nil { ...
// obj.(cache.DeletedFinalStateUnknown) ... }`) or hands the object to code
// that may: a helper's drop is then not the handler's.
func (c *checker) consideredAfter(f *flow, instr ssa.Instruction) bool {
	b := instr.Block()
	i := slices.Index(b.Instrs, instr)
	for _, next := range b.Instrs[i+1:] {
		if c.considers(f, next) {
			return true
		}
	}
	return ssax.Reaches(b.Succs, func(b *ssa.BasicBlock) bool {
		return slices.ContainsFunc(b.Instrs, func(instr ssa.Instruction) bool { return c.considers(f, instr) })
	})
}

// helperEffect returns what the function of another package a call
// statically names does with its i-th argument, from its HelperFact; ok is
// false when nothing is known (no fact: a library, a function value, an
// interface method).
func (c *checker) helperEffect(common *ssa.CallCommon, i int) (ParamEffect, bool) {
	if common.IsInvoke() {
		return ParamEffect{}, false
	}
	fn := common.StaticCallee()
	if fn == nil {
		return ParamEffect{}, false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return ParamEffect{}, false
	}
	obj = obj.Origin()
	param := i
	if fn.Signature.Recv() != nil || strings.HasPrefix(fn.Synthetic, "thunk") {
		param-- // the receiver is the call's first argument (a bound method value's is not)
	}
	var fact HelperFact
	if param < 0 || !c.imports || !summary.Visible(c.pass, obj) || !c.pass.ImportObjectFact(obj, &fact) {
		return ParamEffect{}, false
	}
	for _, p := range fact.Params {
		if p.Param == param {
			return p, true
		}
	}
	return ParamEffect{}, false
}

// exportHelperFacts exports a HelperFact for each exported function, and
// exported method of an exported type, of the package, with a parameter a
// tombstone can arrive in (an empty interface), and a WorkerFact for each
// that runs a worker loop of a queue it is handed (worker.go).
func (c *checker) exportHelperFacts() {
	for _, obj := range summary.Callable(c.pass.Pkg) {
		func() {
			defer crash.At(c.pass.Fset, obj.Pos())
			if fact := c.helperFact(obj); fact != nil {
				c.pass.ExportObjectFact(obj, fact)
			}
			if fact := c.workerFact(obj); fact != nil {
				c.pass.ExportObjectFact(obj, fact)
			}
		}()
	}
}

func (c *checker) helperFact(obj *types.Func) *HelperFact {
	sig := obj.Signature()
	offset := 0
	if sig.Recv() != nil {
		offset = 1
	}
	var fn *ssa.Function
	var params []ParamEffect
	for i := range sig.Params().Len() {
		if !admitsTombstone(sig.Params().At(i).Type()) || sig.Variadic() && i == sig.Params().Len()-1 {
			continue
		}
		if fn == nil {
			fn = c.prog.FuncValue(obj)
			if fn == nil || fn.Blocks == nil {
				return nil // no body: assembly, or linkname
			}
		}
		t := target{fn, i + offset, mayBeTombstone}
		e := c.effectOf(t)
		params = append(params, ParamEffect{Param: i, Settles: c.summarize(t), Panics: e.panics, Drops: e.drops,
			Enqueues: c.queueParam(fn, fn.Params[i+offset], offset)})
	}
	if len(params) == 0 {
		return nil
	}
	return &HelperFact{Params: params}
}
