package forget

import (
	"fmt"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/directive"
	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/manual"
)

const name = "forget"

// Analyzer reports rate-limited workqueue keys that are never forgotten.
var Analyzer = &analysis.Analyzer{
	Name:     name,
	Doc:      manual.MustParse(name, DocSource).AnalyzerDoc(),
	URL:      "https://github.com/ctrllint/ctrllint/blob/main/docs/analyzers/forget.md",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run:      directive.Honour(name, run),
}

// settles are the queue methods after which the rate limiter's memory of a
// key is either cleared or still needed: Forget, and every re-queue.
var settles = keyflow.Rule{
	Methods:       map[string]bool{"Forget": true, "AddRateLimited": true, "AddAfter": true, "Add": true},
	BadKeySettles: true,
}

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.WorkqueuePkg) == nil {
		return nil, nil // no workqueue in sight
	}
	ssaRes := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	a := keyflow.New(ssaRes.Pkg)
	reported := make(map[string]bool)
	for _, it := range a.Gets(ssaRes.SrcFuncs) {
		if !it.Queue.RateLimited {
			continue // a plain queue keeps no per-key state to forget
		}
		if !a.Reaches(it, "AddRateLimited") {
			continue // never rate-limited: the limiter holds nothing for this key
		}
		if statelessQueue(ssaRes.SrcFuncs, it) {
			continue // its limiter's Forget does nothing: no state to leak
		}
		names := keyflow.NamesOf(pass, it)
		leaks := a.Leaks(it, settles)
		if len(leaks) > 1 && !a.Reaches(it, "Forget") {
			// Nothing forgets this key anywhere: one finding at the Get
			// says it better than one per return.
			pass.Report(analysis.Diagnostic{Pos: it.Get.Pos(), Message: fmt.Sprintf(
				"%s is never forgotten: the paths ending at lines %s stop retrying it without Forget, so its rate-limiter entry leaks for the life of the process and its next failure starts from an inflated backoff",
				keyflow.Describe(keyflow.Leak{Item: it, Fn: it.Fn}, names), keyflow.Lines(pass.Fset, leaks))})
			continue
		}
		for _, l := range leaks {
			pos := keyflow.ReportPos(l)
			where := "on this path"
			if l.Return == nil {
				where = "on the path back to the next Get()"
			}
			msg := fmt.Sprintf("%s is neither forgotten nor re-queued %s: its rate-limiter entry leaks for the life of the process and its next failure starts from an inflated backoff",
				keyflow.Describe(l, names), where)
			p := pass.Fset.Position(pos)
			if k := fmt.Sprintf("%s:%d", p.Filename, p.Line); reported[k] {
				continue // the same return reached from two Gets
			} else {
				reported[k] = true
			}
			d := analysis.Diagnostic{Pos: pos, Message: msg}
			if fix := forgetFix(pass, l, names); fix != nil {
				d.SuggestedFixes = []analysis.SuggestedFix{*fix}
			}
			pass.Report(d)
		}
	}
	return nil, nil
}

// forgetFix inserts queue.Forget(key) before the leaking return statement,
// spelled as the function already spells them.
func forgetFix(pass *analysis.Pass, l keyflow.Leak, n keyflow.Names) *analysis.SuggestedFix {
	if l.Return == nil {
		return nil
	}
	ret := keyflow.ReturnStmt(pass, l.Return.Pos())
	if ret == nil {
		return nil // the implicit return at the closing brace
	}
	queue, key := n.Queue, n.Key
	if l.Fn != l.Item.Fn {
		queue, key = keyflow.QueueExprIn(pass, l.Fn, l.Keys)
	} else if n.KeyVar == nil || pass.Pkg.Scope().Innermost(ret.Pos()) == nil {
		return nil
	} else if _, obj := pass.Pkg.Scope().Innermost(ret.Pos()).LookupParent(key, ret.Pos()); obj != n.KeyVar {
		return nil // the key's name means something else here
	}
	if queue == "" || key == "" {
		return nil
	}
	call := queue + ".Forget(" + key + ")"
	return &analysis.SuggestedFix{
		Message:   "Call " + call + " before returning",
		TextEdits: []analysis.TextEdit{edit.InsertBefore(pass, ret.Pos(), call)},
	}
}
