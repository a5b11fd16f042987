package statusupdate

import (
	"fmt"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// A summary is what a package function does to the objects its parameters
// (and, for a closure, its free variables) hold: stores into their parts
// and sends, re-rooted at each call site. Helpers such as
// c.updateStatus(o) or setReadyCondition(o) then count where they are
// called.
type summary struct {
	effects []effect
	through map[int]bool // pointer parameters written through (&o.Status handed in)
}

// An effect is one event on a parameter: param indexes fn.Params, then
// fn.FreeVars; path is the fields loaded from it.
type effect struct {
	param int
	path  string
	ev    event
}

// summarize computes the summaries of funcs, iterating until helpers of
// helpers are accounted for (a few rounds: call chains in controllers are
// short, and a round only adds effects).
func (sc *scanner) summarize(funcs []*ssa.Function) {
	for range 6 {
		changed := false
		for _, fn := range funcs {
			s := sc.summaryOf(fn)
			if old := sc.summaries[fn]; old == nil || fingerprint(old) != fingerprint(s) {
				sc.summaries[fn] = s
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

func (sc *scanner) summaryOf(fn *ssa.Function) *summary {
	evs, through := sc.scan(fn)
	s := &summary{through: make(map[int]bool)}
	seen := make(map[string]bool)
	for _, e := range evs {
		k := paramIndex(fn, e.obj.root)
		if k < 0 {
			continue
		}
		e.instr, e.defers = nil, false
		key := fmt.Sprintf("%d%s|%d|%s|%d|%s|%v|%s", k, e.obj.path, e.store, e.field, e.send, e.method, e.weak, kube.ObjectKey(e.typ))
		if e.via != nil {
			key += "|" + e.via.String()
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		s.effects = append(s.effects, effect{param: k, path: e.obj.path, ev: e})
	}
	for v := range through {
		if k := paramIndex(fn, v); k >= 0 {
			s.through[k] = true
		}
	}
	return s
}

func fingerprint(s *summary) string {
	return fmt.Sprintf("%d/%d", len(s.effects), len(s.through))
}

// paramIndex is the index of a parameter or free variable of fn, or -1.
func paramIndex(fn *ssa.Function, v ssa.Value) int {
	switch v := v.(type) {
	case *ssa.Parameter:
		for i, p := range fn.Params {
			if p == v {
				return i
			}
		}
	case *ssa.FreeVar:
		for i, fv := range fn.FreeVars {
			if fv == v {
				return len(fn.Params) + i
			}
		}
	}
	return -1
}
