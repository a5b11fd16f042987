package conflictretry

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "conflictretry"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "ConflictRetryResendsStaleObject",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer},
	Run:       run,
})

// Analyzer reports conflict retries whose every attempt sends the same
// stale object.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.RetryPkg) == nil && kube.LookupPackage(pass.Pkg, kube.WaitPkg) == nil {
		return nil, nil // no retry helpers in sight
	}
	res := kubessa.Of(pass)
	if res == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	c := &checker{
		pass:         pass,
		pkg:          res.Pkg,
		writers:      make(map[*ssa.Function]*helperWrites),
		paramRefresh: make(map[paramKey]bool),
		reads:        make(map[*ssa.Function]string),
		built:        make(map[paramKey]bool),
		funcs:        res.SrcFuncs,
	}
	fakes := fakeFiles(pass)
	for _, fn := range res.Checked {
		if fakes[pass.Fset.File(fn.Pos())] {
			continue // a fake client: nothing else writes its objects, so the retry never runs again
		}
		c.checkFunc(fn)
	}
	return nil, nil
}

// fakeFiles are the package's test files that import a fake client
// (client-go's kubernetes/fake or dynamic/fake, controller-runtime's
// client/fake, a generated clientset's fake): in a unit test nothing else
// writes the fake's objects, so no conflict arises unless the test makes
// one on purpose, and the retry is dead code rather than a stale write.
func fakeFiles(pass *analysis.Pass) map[*token.File]bool {
	out := make(map[*token.File]bool)
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf == nil || !strings.HasSuffix(tf.Name(), "_test.go") {
			continue
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err == nil && strings.HasSuffix(path, "/fake") {
				out[tf] = true
			}
		}
	}
	return out
}

type checker struct {
	pass *analysis.Pass
	pkg  *ssa.Package
	// Summaries of the package's functions, computed on demand.
	writers      map[*ssa.Function]*helperWrites // which parameters a helper writes stale
	paramRefresh map[paramKey]bool               // whether a helper may refresh or clear a parameter
	reads        map[*ssa.Function]string        // whether a helper returns an object it read ("" no)
	built        map[paramKey]bool               // whether a caller hands a parameter a new object
	funcs        []*ssa.Function                 // the package's, to find callers
}

// checkFunc looks at the retries fn starts.
func (c *checker) checkFunc(fn *ssa.Function) {
	defer crash.At(c.pass.Fset, fn.Pos())
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue // a retry is waited for: not go or defer
			}
			site, ok := c.retrySiteOf(call)
			if !ok {
				continue
			}
			c.checkRetry(fn, site)
		}
	}
}

// checkRetry reports the writes of a retried closure that send an object
// captured from outside it and never read again inside.
func (c *checker) checkRetry(outer *ssa.Function, site retrySite) {
	body := site.body
	reported := make(map[*ssa.FreeVar]bool)
	for _, w := range c.writesIn(body) {
		if w.call.Parent() != body {
			continue // in a nested closure: when it runs is not known
		}
		root, chain := staleRoot(w.obj)
		fv, ok := root.(*ssa.FreeVar)
		if !ok || reported[fv] {
			continue // not an object captured from outside the closure
		}
		if site.wait && !c.retriedOnConflict(body, w) {
			continue // the loop does not go round again on a conflict
		}
		if !site.wait && !returned(w.err) {
			continue // the write's conflict is not what the retry sees
		}
		if c.freeVarRefreshed(body, fv) || c.anyRefreshed(chain) {
			continue // read again, or its resourceVersion set, inside the closure
		}
		i := slices.Index(body.FreeVars, fv)
		if i < 0 || i >= len(site.closure.Bindings) {
			continue
		}
		where, ok := c.originOf(outer, site.closure, site.closure.Bindings[i])
		if !ok {
			continue // not known to be an object read from the API server or a cache
		}
		reported[fv] = true
		c.report(site, w, fv.Name(), where)
	}
}

func (c *checker) report(site retrySite, w write, obj, where string) {
	how := w.method
	if w.via != nil {
		how = helperName(w.via) + " (which calls " + w.method + ")"
	}
	msg := fmt.Sprintf("%s retries %s of %s, %s outside the closure and never read again inside it: every attempt sends the same resourceVersion and conflicts again; read %s afresh inside the closure (Get, or the lister and DeepCopy) before changing and writing it, or refresh it after a failed attempt",
		site.name, how, obj, where, obj)
	c.pass.Report(analysis.Diagnostic{Pos: w.pos, Message: msg})
}

func (c *checker) line(pos token.Pos) int { return c.pass.Fset.Position(pos).Line }

func helperName(fn *ssa.Function) string {
	if recv := fn.Signature.Recv(); recv != nil {
		if _, n := kube.PathName(recv.Type()); n != "" {
			return n + "." + fn.Name()
		}
	}
	return fn.Name()
}
