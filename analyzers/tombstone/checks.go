package tombstone

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	dataflow "github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// checkTombstoneUse reports a use of a value that may be a tombstone (or,
// when o collects a helper's effect, records it).
func (c *checker) checkTombstoneUse(f *flow, instr ssa.Instruction, st state, o origin) {
	switch instr := instr.(type) {
	case *ssa.TypeAssert:
		if !f.tracked(instr.X, st) {
			return
		}
		t := instr.AssertedType
		switch {
		case isTombstoneType(t), admitsTombstone(t):
			return // the tombstone check itself, or an assertion it passes
		case isTombstonePointer(t):
			c.found(o, harmDrop, instr.Pos(), "asserts the object to *cache.DeletedFinalStateUnknown, which never succeeds", nil,
				"the assertion to *cache.DeletedFinalStateUnknown never succeeds: informers deliver tombstones as values, so this check is dead and the deletion is dropped%s", o.context())
		case !instr.CommaOk:
			delete(st, keyOf(instr.X)) // past a panicking assertion the tombstone is gone
			c.found(o, harmPanic, instr.Pos(), fmt.Sprintf("asserts the object to %s without a tombstone check", c.typeString(t)), func() *analysis.SuggestedFix { return c.unwrapFix(instr.Pos()) },
				"type assertion to %s panics on the cache.DeletedFinalStateUnknown tombstone a delete handler receives after a missed watch event%s", c.typeString(t), o.context())
		case o.root.dropHarmless:
			return // the filtered handler ignores deletions anyway
		case !c.failureConsiders(f, instr) && !c.dropLosesNothing(f.fn, instr):
			if sw := c.typeSwitchAt(instr.Pos()); sw.IsValid() {
				c.found(o, harmDrop, sw, "switches on the object's type with no case for the tombstone", func() *analysis.SuggestedFix { return c.unwrapFix(sw) },
					"the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: this type switch has no case for it%s", o.context())
				return
			}
			c.found(o, harmDrop, instr.Pos(), fmt.Sprintf("asserts the object to %s and drops it when that fails", c.typeString(t)), func() *analysis.SuggestedFix { return c.unwrapFix(instr.Pos()) },
				"the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone: the assertion to %s fails and its failure path never unwraps the tombstone%s", c.typeString(t), o.context())
		}
	case ssa.CallInstruction:
		common := instr.Common()
		fn := ssax.Callee(common)
		tf, known := tombstoneFuncOf(fn)
		if !known || tf.Handles || o.root.dropHarmless {
			return
		}
		for _, arg := range common.Args {
			if !f.tracked(arg, st) {
				continue
			}
			what := fmt.Sprintf("passes the object to %s.%s, which returns an error for a tombstone", fn.Pkg().Name(), fn.Name())
			if tf.Replacement != "" {
				c.found(o, harmDrop, instr.Pos(), what, func() *analysis.SuggestedFix { return c.renameFix(instr.Pos(), tf.Replacement) },
					"%s.%s returns an error for the cache.DeletedFinalStateUnknown tombstone a delete handler receives after a missed watch event, so the deletion is dropped; use %s.%s%s",
					fn.Pkg().Name(), fn.Name(), fn.Pkg().Name(), tf.Replacement, o.context())
			} else {
				c.found(o, harmDrop, instr.Pos(), what, nil,
					"%s.%s returns an error for the cache.DeletedFinalStateUnknown tombstone a delete handler receives after a missed watch event, so the deletion is dropped; unwrap the tombstone first%s",
					fn.Pkg().Name(), fn.Name(), o.context())
			}
			return
		}
	}
}

// failureConsiders reports whether the failure path of a comma-ok
// assertion deals with tombstones: it asserts to DeletedFinalStateUnknown,
// calls a deletion-handling key function, or hands the object to code we
// cannot see (which may unwrap it; staying silent there is the price of
// precision). Loggers, formatters and metrics of the libraries
// (kube.IsInert) are seen: they cannot unwrap it.
func (c *checker) failureConsiders(f *flow, ta *ssa.TypeAssert) bool {
	var from *ssa.BasicBlock
	okUsed := false
	if ext := dataflow.Result(ta, 1); ext != nil {
		for _, use := range *ext.Referrers() {
			okUsed = true
			switch use := use.(type) {
			case *ssa.If:
				from = use.Block().Succs[1]
			case *ssa.UnOp:
				if use.Op == token.NOT {
					for _, u2 := range *use.Referrers() {
						if iff, ok := u2.(*ssa.If); ok {
							from = iff.Block().Succs[0]
						}
					}
				}
			}
		}
	}
	switch {
	case from != nil:
	case okUsed:
		return true // ok goes somewhere we do not follow: assume it is handled
	default:
		from = ta.Block() // ok discarded: the rest of the function is the failure path
	}
	return ssax.Reaches([]*ssa.BasicBlock{from}, func(b *ssa.BasicBlock) bool {
		for _, instr := range b.Instrs {
			if c.considers(f, instr) {
				return true
			}
		}
		return false
	})
}

// considers reports whether instr deals with a tracked value's tombstone-ness.
func (c *checker) considers(f *flow, instr ssa.Instruction) bool {
	tracked := func(v ssa.Value) bool { return f.all[keyOf(v)] }
	switch instr := instr.(type) {
	case *ssa.TypeAssert:
		return tracked(instr.X) && (isTombstoneType(instr.AssertedType) || isTombstonePointer(instr.AssertedType))
	case *ssa.Store:
		if ia, ok := instr.Addr.(*ssa.IndexAddr); ok {
			if _, local := ia.X.(*ssa.Alloc); local {
				return false // an element of a local array: variadic ...any arguments (fmt, klog)
			}
		}
		return tracked(instr.Val) // escapes: someone else may unwrap it
	case *ssa.Send:
		return tracked(instr.X)
	case *ssa.MapUpdate:
		return tracked(instr.Value) || tracked(instr.Key)
	case ssa.CallInstruction:
		common := instr.Common()
		for i, arg := range common.Args {
			if !tracked(arg) {
				continue
			}
			if tf, ok := tombstoneFuncOf(ssax.Callee(common)); ok {
				if tf.Handles {
					return true
				}
				continue
			}
			if kube.IsInert(ssax.Callee(common)) {
				continue // a logger, formatter or metric: it only describes the object
			}
			if callee, offset := c.localCallee(common); callee != nil {
				if c.summarize(target{callee, i + offset, mayBeTombstone}) {
					return true
				}
				continue
			}
			if p, ok := c.helperEffect(common, i); ok {
				if p.Settles {
					return true
				}
				continue // a helper of the module known not to unwrap it
			}
			return true // code we cannot see may unwrap it
		}
	}
	return false
}

// settles reports whether a call may have dealt with a possible tombstone
// in v: a package helper that considers tombstones (it may unwrap or filter
// them, as in `if isTombstone(obj) { return }`), a helper of another
// package of the module that considers, drops or panics on them (the
// drop is reported at the call, once), or code we cannot see.
// A library call that only describes the value (kube.IsInert) deals with
// nothing. Past such a call the value is not tracked, so what follows is not
// reported: precision over recall. The deletion-handling key functions do
// not settle: they extract a key and leave the object as it was.
func (c *checker) settles(f *flow, instr ssa.Instruction, v ssa.Value) bool {
	if f.mode != mayBeTombstone {
		return false
	}
	common := instr.(ssa.CallInstruction).Common()
	if _, known := tombstoneFuncOf(ssax.Callee(common)); known || kube.IsInert(ssax.Callee(common)) {
		return false
	}
	if callee, offset := c.localCallee(common); callee != nil {
		for i, arg := range common.Args {
			if arg == v && c.summarize(target{callee, i + offset, mayBeTombstone}) {
				return true
			}
		}
		return false
	}
	for i, arg := range common.Args {
		if arg != v {
			continue
		}
		if p, ok := c.helperEffect(common, i); !ok || p.settlesCaller() {
			return true
		}
	}
	return false
}

// summaryState is what summarize knows of a target so far.
type summaryState int

const (
	summaryUnknown    summaryState = iota // not looked at yet
	summaryInProgress                     // being summarised: a recursive call assumes it does not
	summaryNo                             // does not deal with the tombstone
	summaryYes                            // deals with it somewhere
)

// summarize reports whether fn, given a possible tombstone in the
// parameter, deals with it anywhere.
func (c *checker) summarize(t target) bool {
	switch c.summary[t] {
	case summaryInProgress, summaryNo:
		return false
	case summaryYes:
		return true
	}
	if t.param >= len(t.fn.Params) {
		return false
	}
	c.summary[t] = summaryInProgress
	f := solve(t.fn, mayBeTombstone, []key{{t.fn.Params[t.param], -1}}, c.hooks())
	res := false
	for _, b := range t.fn.Blocks {
		for _, instr := range b.Instrs {
			if c.considers(f, instr) {
				res = true
			}
		}
	}
	c.summary[t] = summaryNo
	if res {
		c.summary[t] = summaryYes
	}
	return res
}

// nilKind says which nil-able value a finding is about.
type nilKind int

const (
	nilFilter   nilKind = iota // the argument of a typed FilterFunc
	nilOptional                // DeletedObject.OptionalObj
)

// checkNilUse reports a dereference of a value that may be nil.
func (c *checker) checkNilUse(f *flow, instr ssa.Instruction, st state, o origin, kind nilKind) {
	var v ssa.Value
	switch instr := instr.(type) {
	case *ssa.FieldAddr:
		v = instr.X
	case *ssa.UnOp:
		if instr.Op == token.MUL {
			v = instr.X
		}
	case ssa.CallInstruction:
		common := instr.Common()
		fn := ssax.Callee(common)
		if _, known := tombstoneFuncOf(fn); !known {
			return
		}
		for _, arg := range common.Args {
			// The key functions take an interface: the pointer is converted.
			for _, x := range dataflow.Preds(arg, dataflow.Conversions) {
				if f.tracked(x, st) && kube.IsPointer(x.Type()) {
					c.report(instr.Pos(), nil, "%s.%s panics on %s%s", fn.Pkg().Name(), fn.Name(), c.nilSubject(kind, x.Type()), c.nilAdvice(kind, o))
					return
				}
			}
		}
		return
	}
	if v == nil || !f.tracked(v, st) || !kube.IsPointer(v.Type()) {
		return
	}
	k := keyOf(v)
	delete(st, k) // one finding per value and path: the first dereference panics
	pos := instr.Pos()
	if val, ok := instr.(ssa.Value); ok && !pos.IsValid() {
		// An implicit field selection (a promoted method): place the
		// finding at the call that needs it.
		for _, r := range *val.Referrers() {
			if r.Pos().IsValid() {
				pos = r.Pos()
				break
			}
		}
	}
	c.report(pos, nil, "this dereference panics on %s%s", c.nilSubject(kind, v.Type()), c.nilAdvice(kind, o))
}

func (c *checker) nilSubject(kind nilKind, t types.Type) string {
	if kind == nilOptional {
		return "the nil DeletedObject.OptionalObj of a deletion the informer saw without any copy of the object"
	}
	return fmt.Sprintf("the nil %s a typed FilterFunc receives for a deletion the informer saw without any copy of the object", c.typeString(t))
}

func (c *checker) nilAdvice(kind nilKind, o origin) string {
	if kind == nilOptional {
		return "; check it for nil, or use GetKey or GetObjectName"
	}
	return "; check it for nil" + o.context()
}

// checkOptionalObj checks every read of DeletedObject[T].OptionalObj in fn.
func (c *checker) checkOptionalObj(fn *ssa.Function) {
	var seeds []key
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if v, ok := instr.(ssa.Value); ok {
				if k := keyOf(v); k.field >= 0 {
					seeds = append(seeds, k)
				}
			}
		}
	}
	if len(seeds) == 0 {
		return
	}
	f := solve(fn, mayBeNil, seeds, hooks{})
	f.walk(func(instr ssa.Instruction, st state) {
		c.checkNilUse(f, instr, st, origin{}, nilOptional)
	})
}

// context names the handler a finding is reached from.
func (o origin) context() string {
	r := o.root
	if r.fn == nil {
		return ""
	}
	switch {
	case r.from != "" && o.via != nil:
		return fmt.Sprintf(" (the object comes from %s, which implements %s)", r.name, r.from)
	case r.from != "":
		return fmt.Sprintf(" (%s implements %s)", r.name, r.from)
	case r.shared != "":
		return fmt.Sprintf(" (%s is both the %s and the %s of an informer handler)", r.name, r.shared, r.role)
	case o.via != nil:
		if r.name == "func literal" {
			return fmt.Sprintf(" (the object comes from a %s literal)", r.role)
		}
		return fmt.Sprintf(" (the object comes from the %s %s)", r.role, r.name)
	}
	return ""
}

func (c *checker) typeString(t types.Type) string {
	// Qualify by package name, as the code under analysis spells it.
	return types.TypeString(t, func(p *types.Package) string {
		if p == c.pass.Pkg {
			return ""
		}
		return p.Name()
	})
}

func (c *checker) report(pos token.Pos, fix *analysis.SuggestedFix, format string, args ...any) {
	if c.silent {
		return
	}
	msg := fmt.Sprintf(format, args...)
	p := c.pass.Fset.Position(pos)
	k := fmt.Sprintf("%s:%d:%s", p.Filename, p.Line, msg)
	if c.reported[k] {
		return // reached from several handlers: one finding is enough
	}
	c.reported[k] = true
	d := analysis.Diagnostic{Pos: pos, Message: msg}
	if node := c.nodeAt(pos); node != nil {
		d.Pos, d.End = node.Pos(), node.End()
	}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	c.pass.Report(d)
}
