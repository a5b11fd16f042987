package requeueerr

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "requeueerr"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "RequeueWithError",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer},
	Run:       run,
})

// Analyzer reports Reconcile returns that pair a Result asking for a
// requeue with a non-nil error: controller-runtime ignores the Result.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.CRReconcilePkg) == nil {
		return nil, nil // no controller-runtime reconciler in sight
	}
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	funcs := packageFuncs(ssaRes)
	c := &checker{pass: pass, pkg: ssaRes.Pkg, globals: indexGlobals(funcs)}
	var work []visit
	for _, root := range roots(ssaRes.Pkg, funcs) {
		if strings.HasSuffix(pass.Fset.Position(root.Pos()).Filename, "_test.go") {
			continue // a test's reconciler exercises the framework on purpose
		}
		work = append(work, visit{fn: root, result: 0, err: 1})
	}
	seen := make(map[visitKey]bool)
	reported := make(map[*ssa.Return]bool)
	for len(work) > 0 {
		v := work[0]
		work = work[1:]
		key := visitKey{v.fn, v.result, v.err}
		if seen[key] {
			continue
		}
		seen[key] = true
		work = append(work, c.visitReturns(v, reported)...)
	}
	return nil, nil
}

// visitReturns reports the returns of one visit that ask for a requeue
// with a non-nil error, and returns the helpers to visit next.
func (c *checker) visitReturns(v visit, reported map[*ssa.Return]bool) (work []visit) {
	defer crash.At(c.pass.Fset, v.fn.Pos())
	for _, ret := range c.returns(v) {
		if f := c.check(ret); f != nil {
			c.reportOnce(ret.ret, f, v, reported)
			continue
		}
		next, call, ok := c.passedThrough(ret)
		if !ok {
			continue
		}
		if f := c.throughParams(ret, call, next); f != nil {
			c.reportOnce(ret.ret, f, v, reported)
		}
		next.via = append(append([]*ssa.Function(nil), v.via...), v.fn)
		work = append(work, next)
	}
	return work
}

// reportOnce reports a finding at ret unless a visit along another chain
// of helpers has: a return is reported once, with the chain found first.
func (c *checker) reportOnce(ret *ssa.Return, f *finding, v visit, reported map[*ssa.Return]bool) {
	if reported[ret] {
		return
	}
	reported[ret] = true
	c.pass.Report(analysis.Diagnostic{Pos: ret.Pos(), Message: f.message(v)})
}

// A visit checks the returns of one function: a Reconcile (result 0 and
// error 1), or a helper whose Result and error (at the given positions
// of its results) a Reconcile returns as its own, through the functions in
// via.
type visit struct {
	fn          *ssa.Function
	result, err int
	via         []*ssa.Function
}

// visitKey identifies a visit: a helper reached along two chains is
// checked once.
type visitKey struct {
	fn          *ssa.Function
	result, err int
}

// packageFuncs are the package's source functions and the package
// initializer with its function literals (a reconcile.Func in a
// package-level variable), which buildssa's SrcFuncs leaves out.
func packageFuncs(res *kubessa.SSA) []*ssa.Function {
	funcs := append([]*ssa.Function(nil), res.SrcFuncs...)
	if init := res.Pkg.Func("init"); init != nil {
		var add func(*ssa.Function)
		add = func(fn *ssa.Function) {
			funcs = append(funcs, fn)
			for _, anon := range fn.AnonFuncs {
				add(anon)
			}
		}
		add(init)
	}
	return funcs
}

// A finding is a return that pairs a requeue with a non-nil error.
type finding struct {
	field    string // "RequeueAfter" or "Requeue"
	terminal bool   // the error is a reconcile.TerminalError
	// helper, when set, makes the Result and returns it with the error
	// the finding's return passes to it.
	helper *ssa.Function
}

func (f *finding) message(v visit) string {
	var msg string
	switch {
	case f.terminal:
		msg = fmt.Sprintf("Result with %s returned with a TerminalError: controller-runtime ignores the Result and never requeues a terminal error, so the requested requeue never happens; return a plain error to retry with backoff, or log the error and return the Result with a nil error", f.field)
	case f.field == "Requeue":
		msg = "Result with Requeue returned with a non-nil error: controller-runtime ignores the Result when the error is non-nil and logs a warning on every such reconcile; the error alone already requeues with rate-limited backoff, so return it with an empty Result"
	default:
		msg = "Result with RequeueAfter returned with a non-nil error: controller-runtime ignores the Result when the error is non-nil and requeues with rate-limited backoff instead, so the requested delay never happens; return the error alone, or log it and return the Result with a nil error"
	}
	if f.helper != nil {
		msg += " (" + funcName(f.helper) + " returns it with the error passed to it)"
	}
	if len(v.via) > 0 {
		names := make([]string, len(v.via))
		for i, fn := range v.via {
			names[i] = funcName(fn)
		}
		msg += " (returned by " + strings.Join(names, " via ") + ")"
	}
	return msg
}

// funcName names a function for a message: "(*R).Reconcile", or a
// function literal by its position.
func funcName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		pos := fn.Prog.Fset.Position(fn.Pos())
		return fmt.Sprintf("the function literal at line %d", pos.Line)
	}
	return fn.RelString(fn.Pkg.Pkg)
}
