package unwatched

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
)

// filters reports a builder-wide event filter that drops status-only
// changes when the controller Owns or Watches a kind whose status the
// package reads: those changes, which the reconciler waits for, never
// start a Reconcile.
func (p *pkg) filters() {
	var reads map[string][]statusRead // memoised
ctrls:
	for _, c := range p.ctrls {
		var filter *ssa.Call
		for _, f := range c.EventFilters {
			if len(f.Call.Args) == 2 && hidesStatus(f.Call.Args[1], 0) && p.checked[f.Parent()] {
				filter = f
				break
			}
		}
		if filter == nil {
			continue
		}
		if reads == nil {
			reads = p.statusReads()
		}
		for _, list := range [][]kubessa.Watch{c.Owns, c.Watches} {
			for _, w := range list {
				if forKind(c, w.Object) {
					continue
				}
				at := p.readFor(c, reads[kube.ObjectKey(w.Object)])
				if !at.IsValid() {
					continue
				}
				p.pass.Reportf(filter.Pos(), "this event filter applies to every watch of the controller, and drops the status-only changes of the %s it watches, "+
					"whose status the package reads (%s): a change of that status never starts a Reconcile; "+
					"give the predicate to For with builder.WithPredicates instead", p.kindName(w.Object, filter.Pos()), summary.Where(p.pass.Fset, at))
				continue ctrls // one finding per filter
			}
		}
	}
}

// A statusRead is a read of an object's Status field, in fn.
type statusRead struct {
	pos token.Pos
	fn  *ssa.Function
}

// readFor picks the read to cite for controller c: one in a method of its
// reconciler (or a function literal in one); any read when the package
// has no other controller, whose reconciler could be the reader; none
// otherwise.
func (p *pkg) readFor(c *kubessa.Controller, reads []statusRead) token.Pos {
	recon := reconcilers(c)
	for _, r := range reads {
		fn := r.fn
		for fn.Parent() != nil {
			fn = fn.Parent()
		}
		if recv := fn.Signature.Recv(); recv != nil && recon[types.TypeString(kube.Pointee(recv.Type()), nil)] {
			return r.pos
		}
	}
	if len(p.ctrls) == 1 && len(reads) > 0 {
		return reads[0].pos
	}
	return token.NoPos
}

// reconcilers are the names of the types of the reconcilers c's Complete
// and Build calls hand it.
func reconcilers(c *kubessa.Controller) map[string]bool {
	out := make(map[string]bool)
	for _, done := range c.Done {
		if len(done.Call.Args) == 2 {
			if t := reconcilerType(done.Call.Args[1]); t != nil {
				out[types.TypeString(t, nil)] = true
			}
		}
	}
	return out
}

// reconcilerType is the named type of the reconciler handed to Complete or
// Build, nil when it is not known here.
func reconcilerType(v ssa.Value) types.Type {
	for x := range flow.Chain(v, flow.Same) {
		if t := ssax.Boxed(x); t != nil {
			return kube.Pointee(t)
		}
	}
	return nil
}

// forKind reports whether t is also c's primary kind: its status is the
// controller's own to write.
func forKind(c *kubessa.Controller, t types.Type) bool {
	for _, w := range c.For {
		if kube.ObjectKey(w.Object) == kube.ObjectKey(t) {
			return true
		}
	}
	return false
}

// hidesStatus reports whether the predicate v passes no status-only
// change: GenerationChangedPredicate (and the label and annotation ones),
// an Or of only such predicates, or an And of at least one.
func hidesStatus(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	for x := range flow.Chain(v, flow.Same) {
		if mi, ok := x.(*ssa.MakeInterface); ok && kube.HidesStatusChanges(mi.X.Type()) {
			return true
		}
		call, ok := x.(*ssa.Call)
		if !ok {
			continue
		}
		comb := kube.PredicateCombinator(ssax.Callee(call.Common()))
		if comb != "Or" && comb != "And" || len(call.Call.Args) != 1 {
			return false
		}
		preds, ok := flow.Variadic(call.Call.Args[0])
		if !ok || len(preds) == 0 {
			return false
		}
		for _, pr := range preds {
			h := hidesStatus(pr, depth+1)
			if comb == "Or" && !h {
				return false
			}
			if comb == "And" && h {
				return true
			}
		}
		return comb == "Or"
	}
	return false
}

// statusReads returns, by object type, the reads of a Status field in the
// package's code.
func (p *pkg) statusReads() map[string][]statusRead {
	out := make(map[string][]statusRead)
	for _, fn := range p.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var x ssa.Value
				var field int
				switch in := instr.(type) {
				case *ssa.FieldAddr:
					x, field = in.X, in.Field
				case *ssa.Field:
					x, field = in.X, in.Field
				default:
					continue
				}
				t := kube.Pointee(x.Type())
				if t == nil {
					continue // a field of an unnamed struct (an enum-like var's)
				}
				st, ok := t.Underlying().(*types.Struct)
				if !ok || field >= st.NumFields() || st.Field(field).Name() != "Status" || !kube.IsObjectType(t) {
					continue
				}
				if instr.Pos().IsValid() && !p.onlyWritten(instr) {
					k := kube.ObjectKey(t)
					out[k] = append(out[k], statusRead{instr.Pos(), fn})
				}
			}
		}
	}
	return out
}

// onlyWritten reports whether the Status field address is only stored
// into (a status being built for an object the package writes, not read).
func (p *pkg) onlyWritten(instr ssa.Instruction) bool {
	fa, ok := instr.(*ssa.FieldAddr)
	if !ok || fa.Referrers() == nil {
		return false
	}
	for _, r := range *fa.Referrers() {
		switch u := r.(type) {
		case *ssa.Store:
			if u.Addr != fa {
				return false
			}
		case *ssa.FieldAddr:
			if !p.onlyWritten(u) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
