package listerbypass

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/crash"
)

// Controllers often read through a helper of another package of their
// module (kubernetes' pkg/controller/util/node, node-feature-discovery's
// apihelper): the controller hands it its clientset, and the helper lists
// or gets through it. What such a helper reads is summarised when its
// package is analysed and carried to its callers as a ReadsFact; a call
// of the helper on a controller's per-event path is then a read of the
// resource, judged like one written at the call.

// ReadsFact is what a function or method of a package of the analysed
// modules reads through a typed clientset it takes from a parameter or
// from its receiver's fields, in its own body, in the helpers of its own
// package it calls, and in those of other packages of the analysed modules
// it calls (through their facts), however deep the chain. A function
// without the fact reads nothing anyone knows of.
type ReadsFact struct {
	Reads []HelperRead
}

// A HelperRead is one clientset read a helper makes.
type HelperRead struct {
	Method string // "Get" or "List"
	Key    string // the object's key (kube.ObjectKey)
	Kind   string // the object's kind, for messages
	At     string // where the read is: "file.go:12"
	// Deliberate: the read is a deliberate fresh read inside the helper
	// (its result feeds a client write there, the helper also reads the
	// resource's cache, or it confirms an absence or guards a write): a
	// call of the helper is not a bypass.
	Deliberate bool
}

// AFact implements analysis.Fact.
func (*ReadsFact) AFact() {}

func (f *ReadsFact) String() string {
	var parts []string
	for _, r := range f.Reads {
		s := fmt.Sprintf("%s %s at %s", r.Method, r.Kind, r.At)
		if r.Deliberate {
			s += " (deliberate)"
		}
		parts = append(parts, s)
	}
	return "reads(" + strings.Join(parts, "; ") + ")"
}

// summariser computes the reads of the package's functions, memoised.
type summariser struct {
	pass  *analysis.Pass
	pkg   *ssa.Package
	memo  map[*ssa.Function][]HelperRead
	empty *caches // readOf needs caches only for controller-runtime readers
}

func newSummariser(pass *analysis.Pass, pkg *ssa.Package) *summariser {
	return &summariser{pass: pass, pkg: pkg, memo: make(map[*ssa.Function][]HelperRead), empty: &caches{apiReaders: map[*types.Var]bool{}}}
}

// readsOf returns the clientset reads fn makes, in its body and in the
// package functions it calls statically, each read once. A read in a
// callee whose result the caller feeds to a write, or whose resource the
// caller also reads from a cache, is deliberate there too. A recursive
// call sees what is known so far (nothing, for a cycle).
func (s *summariser) readsOf(fn *ssa.Function) []HelperRead {
	if rs, ok := s.memo[fn]; ok {
		return rs
	}
	s.memo[fn] = nil
	var out []HelperRead
	seen := make(map[HelperRead]bool)
	add := func(hr HelperRead) {
		if !seen[hr] {
			seen[hr] = true
			out = append(out, hr)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if r, ok := readOf(instr, s.empty); ok {
				if r.kind == typedRead && clientFromArgs(r.call.Common().Value) {
					add(HelperRead{
						Method:     r.method,
						Key:        r.key,
						Kind:       kube.Kind(r.object),
						At:         s.where(r.call.Pos()),
						Deliberate: feedsWrite(fn, r) || readsCacheToo(fn, r) || confirms(fn, r),
					})
				}
				continue
			}
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			// The package's own functions, and the helpers of the units
			// below it through their facts: a chain of helpers across
			// the module's packages is one helper to its callers.
			var reads []HelperRead
			switch callee := call.Common().StaticCallee(); {
			case callee == nil:
				continue
			case callee.Pkg == s.pkg && callee.Blocks != nil:
				reads = s.readsOf(callee)
			default:
				reads, _ = helperReads(s.pass, call)
			}
			for _, hr := range reads {
				if !hr.Deliberate {
					hr.Deliberate = deliberateAtCall(fn, helperRead(call, hr))
				}
				add(hr)
			}
		}
	}
	s.memo[fn] = out
	return out
}

func (s *summariser) where(pos token.Pos) string { return summary.Where(s.pass.Fset, pos) }

// export exports a ReadsFact for each exported function, and exported
// method of an exported type, of the package that reads.
func (s *summariser) export() {
	for _, obj := range summary.Callable(s.pass.Pkg) {
		func() {
			defer crash.At(s.pass.Fset, obj.Pos())
			fn := s.pkg.Prog.FuncValue(obj)
			if fn == nil || fn.Blocks == nil {
				return
			}
			if rs := s.readsOf(fn); len(rs) > 0 {
				s.pass.ExportObjectFact(obj, &ReadsFact{Reads: rs})
			}
		}()
	}
}

// clientFromArgs reports whether a typed resource client comes from the
// function's parameters or its receiver's fields:
// client.CoreV1().Pods(ns), c.kubeClient.CoreV1().Pods(ns). A clientset
// the helper makes itself is left out.
func clientFromArgs(v ssa.Value) bool {
	for range 12 {
		switch x := flow.Origin(v, flow.Conversions|flow.Fields|flow.Loads).(type) {
		case *ssa.Parameter:
			return true
		case *ssa.Call:
			c := x.Common()
			switch {
			case c.IsInvoke():
				v = c.Value
			case c.Signature().Recv() != nil && len(c.Args) > 0:
				v = c.Args[0] // a concrete clientset's method
			default:
				return false
			}
		default:
			return false
		}
	}
	return false
}

// helperRead is the read a call of a helper makes, as the caller sees it.
func helperRead(call ssa.CallInstruction, hr HelperRead) read {
	return read{call: call, kind: typedRead, method: hr.Method, key: hr.Key, kindName: hr.Kind, at: hr.At}
}

// deliberateAtCall reports whether the caller of a helper makes its read
// deliberate: the helper's result feeds a write in the caller, the caller
// reads the resource from its cache too, or confirms with the result.
func deliberateAtCall(fn *ssa.Function, r read) bool {
	return feedsWrite(fn, r) || readsCacheToo(fn, r) || confirms(fn, r)
}

// helperReads returns the reads the function of another package a call
// statically names makes, from its ReadsFact.
func helperReads(pass *analysis.Pass, call ssa.CallInstruction) ([]HelperRead, *types.Func) {
	common := call.Common()
	if common.IsInvoke() {
		return nil, nil
	}
	fn := common.StaticCallee()
	if fn == nil {
		return nil, nil
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg() == pass.Pkg {
		return nil, nil
	}
	obj = obj.Origin()
	var fact ReadsFact
	if !summary.Visible(pass, obj) || !pass.ImportObjectFact(obj, &fact) {
		return nil, nil
	}
	return fact.Reads, obj
}
