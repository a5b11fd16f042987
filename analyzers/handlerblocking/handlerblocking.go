package handlerblocking

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/eventpath"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "handlerblocking"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "BlockingEventHandler",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer, eventpath.Analyzer},
	Run:       run,
})

// Analyzer reports API calls, sleeps, blocking sends and waits for locks
// held across I/O inside informer event handlers.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.CachePkg) == nil {
		return nil, nil // no informer in sight
	}
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	paths := eventpath.Of(pass)
	roots := findRoots(pass, ssaRes.Pkg, ssaRes.SrcFuncs, paths)
	if len(roots) == 0 {
		return nil, nil // no event handler in the package
	}
	k := newKnowledge(ssaRes.Pkg, ssaRes.SrcFuncs)
	reported := make(map[ssa.Instruction]bool)
	waits := make(map[ssa.Instruction][]wait)
	var sections []holder
	for _, r := range roots {
		check(pass, k, paths, r, reported, func(h holder, w wait) {
			if waits[h.inner] == nil {
				sections = append(sections, h)
			}
			waits[h.inner] = append(waits[h.inner], w)
		})
	}
	var onEvent map[*ssa.Function]bool
	if len(sections) > 0 {
		onEvent = paths.PerEvent(paths.Processing(nil), nil)
	}
	for _, h := range sections {
		if !onEvent[h.fn] {
			continue // set-up code: the handlers wait once, if at all
		}
		if reported[h.inner] {
			continue // the call is in a handler: reported as such
		}
		if inTestFile(pass, h.fn) {
			continue // a test's section: it arranges what it waits for
		}
		reportSection(pass, h, waits[h.inner])
	}
	return nil, nil
}

// check reports what blocks in the functions root r reaches, each blocking
// instruction once (for the first handler that reaches it).
func check(pass *analysis.Pass, k *knowledge, paths *eventpath.Paths, r root, reported map[ssa.Instruction]bool, waitFor func(holder, wait)) {
	defer crash.At(pass.Fset, r.fn.Pos())
	if inTestFile(pass, r.fn) {
		return // a test's handler runs against fakes: nothing to stall
	}
	parent := reach(paths, r.fn)
	for _, fn := range order(parent, r.fn) {
		if inTestFile(pass, fn) {
			continue // test helpers arrange; they are not the handler's I/O
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if reported[instr] {
					continue
				}
				bl, ok := k.blocking(instr)
				if !ok {
					continue
				}
				reported[instr] = true
				if bl.holders != nil {
					for _, h := range bl.holders {
						waitFor(h, wait{lock: instr, root: r, via: via(parent, fn)})
					}
					continue
				}
				pass.Report(analysis.Diagnostic{
					Pos:     instr.Pos(),
					Message: message(bl, r, via(parent, fn)),
				})
			}
		}
	}
}

// message says what blocks, in which handler and through which calls, what
// it costs and what to do instead.
func message(bl blocker, r root, via []string) string {
	where := "the " + r.name
	if len(via) > 0 {
		where += " (via " + strings.Join(via, " → ") + ")"
	}
	return fmt.Sprintf("%s in %s: %s", bl.what, where, bl.cost)
}

// A wait is a handler's Lock of a mutex that a section holds across an
// API call.
type wait struct {
	lock ssa.Instruction
	root root
	via  []string
}

// reportSection reports an API call made while holding a mutex that event
// handlers lock, at the call: that is where the fix goes, and one report
// stands for every handler that waits.
func reportSection(pass *analysis.Pass, h holder, ws []wait) {
	w := ws[0]
	first := "the " + w.root.name
	if len(w.via) > 0 {
		first += " (via " + strings.Join(w.via, " → ") + ")"
	}
	first += " at " + shortPos(pass.Fset.Position(w.lock.Pos()).String())
	who := first + " locks"
	if len(ws) > 1 {
		who = fmt.Sprintf("%d event handlers (%s, ...) lock", len(ws), first)
	}
	pass.Report(analysis.Diagnostic{
		Pos: h.inner.Pos(),
		Message: fmt.Sprintf("%s while %s holds %s, which %s too: handlers run on the informer's delivery goroutine, "+
			"so every later event of theirs waits for the API server; unlock before the call", h.io.what, funcName(h.fn), mutexName(h), who),
	})
}

// mutexName spells the mutex a section holds: tc.mutex for a field of the
// holder's receiver, else its name.
func mutexName(h holder) string {
	if v, ok := h.key.(*types.Var); ok && v.IsField() && h.fn.Signature.Recv() != nil && len(h.fn.Params) > 0 {
		return h.fn.Params[0].Name() + "." + v.Name()
	}
	return h.key.Name()
}

// inTestFile reports whether fn is declared in a _test.go file, or is test
// code (ssax.InTest).
func inTestFile(pass *analysis.Pass, fn *ssa.Function) bool {
	for f := fn; f != nil; f = f.Parent() {
		if strings.HasSuffix(pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			return true
		}
	}
	return false
}
