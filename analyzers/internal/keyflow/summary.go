package keyflow

import (
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
)

// Workers often hand their key to a helper of another package of the
// module (a shared handleErr, a queue wrapper). What such a helper does
// with the key is summarised when its package is analysed (Summarise) and
// carried to the callers as an analysis fact of the analyzer's own type,
// which the analyzer hands back through Rule.Imported.

// An Outcome is what a function does with a key handed to one of its
// parameters, under a rule.
type Outcome uint8

const (
	// Unsummarised: nothing is known (not a key-like parameter).
	Unsummarised Outcome = iota
	// Never: no path settles the key or hands it over; every return
	// leaves it as it came.
	Never
	// Some: some paths settle it, others return without.
	Some
	// Always: every path settles it or hands it over.
	Always
)

// An Effect is what a function does with the key in one parameter.
type Effect struct {
	Outcome Outcome
	// Methods are the queue methods applied to the key on some path
	// (methodBit), for Reaches.
	Methods uint8
	// Exit is where a Some helper returns without settling: "file:line".
	Exit string
}

// methods are the queue methods a summary records, by bit: those that
// settle a key, and NumRequeues, a retry limit (forget's endless retries).
var methods = []string{"Done", "Forget", "AddRateLimited", "AddAfter", "Add", "NumRequeues"}

// String describes the effect for tests and debugging: "some
// [AddRateLimited] exit x.go:12".
func (e Effect) String() string {
	var ms []string
	for i, m := range methods {
		if e.Methods&(1<<i) != 0 {
			ms = append(ms, m)
		}
	}
	out := [...]string{"-", "never", "some", "always"}[e.Outcome] + " [" + strings.Join(ms, ",") + "]"
	if e.Exit != "" {
		out += " exit " + e.Exit
	}
	return out
}

// DescribeEffects lists the summarised parameters of effects by index.
func DescribeEffects(effects []Effect) string {
	var out []string
	for i, e := range effects {
		if e.Outcome != Unsummarised {
			out = append(out, "#"+strconv.Itoa(i)+" "+e.String())
		}
	}
	return strings.Join(out, "; ")
}

func methodBit(m string) uint8 {
	for i, n := range methods {
		if n == m {
			return 1 << i
		}
	}
	return 0
}

// Summarise returns what fn does under rule with a key in each of its
// parameters (the receiver first for a method), and whether any of it is
// worth carrying to other packages: a parameter that may carry a key and
// that the function settles, applies a queue method to, or may leave
// unsettled while it holds a queue.
func (a *Analysis) Summarise(fn *ssa.Function, rule Rule, position func(*ssa.Return) string) ([]Effect, bool) {
	if fn.Blocks == nil {
		return nil, false
	}
	effects := make([]Effect, len(fn.Params))
	worth := false
	holdsQueue := false
	for _, p := range fn.Params {
		if _, ok := kube.QueueOf(p.Type()); ok {
			holdsQueue = true
		}
	}
	for i, p := range fn.Params {
		if !keyLike(p.Type()) {
			continue
		}
		s := seed{fn: fn, index: i}
		var e Effect
		for _, m := range methods {
			if a.touchesKey(s, Rule{Methods: map[string]bool{m: true}}, m) {
				e.Methods |= methodBit(m)
			}
		}
		w := &walker{a: a, rule: rule, item: &Item{}, exits: make(map[seed]*[]site)}
		exits := *w.helperExits(s)
		switch {
		case len(exits) == 0:
			e.Outcome = Always
		case !a.touchesKey(s, rule, ruleName(rule)) && everyReturn(fn, exits):
			e.Outcome = Never
		default:
			e.Outcome = Some
			for _, x := range exits {
				if x.fn == fn && x.ret != nil && position != nil {
					e.Exit = position(x.ret)
					break
				}
			}
		}
		effects[i] = e
		// Callers assume the best of a function of another package that
		// is handed the key and a queue; what one that applies no queue
		// method does matters only then.
		if e.Methods != 0 || holdsQueue {
			worth = true
		}
	}
	return effects, worth
}

// keyLike reports whether a value of type t may be a work-queue key: a
// string, an interface or a type parameter (a typed queue's item).
func keyLike(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Interface:
		return u.Empty() // interface{} and any; not a Context or an error
	}
	_, isParam := types.Unalias(t).(*types.TypeParam)
	return isParam
}

// everyReturn reports whether every return of fn is among exits.
func everyReturn(fn *ssa.Function, exits []site) bool {
	at := make(map[*ssa.Return]bool)
	for _, x := range exits {
		if x.fn == fn && x.ret != nil {
			at[x.ret] = true
		}
	}
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && !at[r] {
			return false
		}
	}
	return true
}

// imported is the summary of the parameter of another package's function
// that a call hands the key to, if the rule has one.
func (w *walker) imported(common *ssa.CallCommon, keys map[ssa.Value]bool) (Effect, *types.Func, bool) {
	if w.a.Imported == nil {
		return Effect{}, nil, false
	}
	callee := importedCallee(w.a, common)
	if callee == nil {
		return Effect{}, nil, false
	}
	for i, arg := range common.Args {
		if keys[arg] {
			if e, ok := w.a.Imported(callee, i); ok && e.Outcome != Unsummarised {
				return e, callee, true
			}
		}
	}
	return Effect{}, nil, false
}

// importedCallee is the function of another package a call invokes
// statically, nil otherwise.
func importedCallee(a *Analysis, common *ssa.CallCommon) *types.Func {
	if common.IsInvoke() {
		return nil
	}
	fn := ssax.Callee(common)
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == a.pkg.Pkg {
		return nil
	}
	return fn.Origin() // facts are about the generic function
}

// importedMentions reports whether a call hands one of keys to a function
// of another package that applies a method of rule to it on some path.
// The methods a summary records do not depend on the rule it was made
// under, so any rule may ask.
func (a *Analysis) importedMentions(common *ssa.CallCommon, keys map[ssa.Value]bool, rule Rule) bool {
	if a.Imported == nil {
		return false
	}
	callee := importedCallee(a, common)
	if callee == nil {
		return false
	}
	for i, arg := range common.Args {
		if !keys[arg] {
			continue
		}
		e, ok := a.Imported(callee, i)
		if !ok {
			continue
		}
		for m := range rule.Methods {
			if e.Methods&methodBit(m) != 0 {
				return true
			}
		}
	}
	return false
}

// Export summarises the functions among funcs that another package can
// call (declared functions and methods) under rule, and hands those worth
// carrying to export. position renders a return's place for messages.
func (a *Analysis) Export(funcs []*ssa.Function, rule Rule, position func(*ssa.Return) string, export func(*types.Func, []Effect)) {
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || obj.Pkg() != a.pkg.Pkg {
			continue
		}
		if effects, worth := a.Summarise(fn, rule, position); worth {
			export(obj, effects)
		}
	}
}

// ViaName names the helper of another package a leak goes through:
// "util.HandleErr", "(*util.Requeuer).Requeue".
func (l Leak) ViaName() string {
	if l.Via == nil {
		return ""
	}
	sig := l.Via.Type().(*types.Signature)
	if sig.Recv() == nil {
		return l.Via.Pkg().Name() + "." + l.Via.Name()
	}
	recv := sig.Recv().Type()
	star := ""
	if p, ok := recv.(*types.Pointer); ok {
		recv, star = p.Elem(), "*"
	}
	name := types.TypeString(recv, types.RelativeTo(nil))
	if n, ok := types.Unalias(recv).(*types.Named); ok {
		name = n.Obj().Pkg().Name() + "." + n.Obj().Name()
	}
	return "(" + star + name + ")." + l.Via.Name()
}

// A Fact is an analyzer's fact carrying a function's summary: each
// analyzer declares a type of its own (a fact type belongs to one
// analyzer), made by the function UseFacts is given.
type Fact interface {
	analysis.Fact
	Effects() []Effect
}

// UseFacts has a read the summaries of the functions of the packages pass's
// package imports from pass's facts of type F and, when pass's package
// exports summaries (summary.Exports), exports those of funcs under rule
// as facts made by newFact. What is exported is computed with the facts
// it imports, so a key handed down a chain of helpers across the module's
// packages is followed to its end (package summary).
func UseFacts[F Fact](pass *analysis.Pass, a *Analysis, funcs []*ssa.Function, rule Rule, newFact func([]Effect) F) {
	// A walk asks at every path through a call: each fact is decoded once.
	imported := make(map[*types.Func][]Effect)
	importedFact := func(fn *types.Func, i int) (Effect, bool) {
		es, ok := imported[fn]
		if !ok {
			if f := newFact(nil); summary.Visible(pass, fn) && pass.ImportObjectFact(fn, f) {
				es = f.Effects()
			}
			imported[fn] = es
		}
		if i >= len(es) {
			return Effect{}, false
		}
		return es[i], true
	}
	if summary.Exports(pass) {
		position := func(r *ssa.Return) string { return summary.Where(pass.Fset, r.Pos()) }
		// Test files' functions are left out: no other package calls them
		// (but through an export_test.go, for the package's own tests).
		var exported []*ssa.Function
		for _, fn := range funcs {
			if !strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go") {
				exported = append(exported, fn)
			}
		}
		own := New(a.pkg)
		own.Imported = importedFact
		own.Export(exported, rule, position, func(fn *types.Func, es []Effect) { pass.ExportObjectFact(fn, newFact(es)) })
	}
	a.Imported = importedFact
}
