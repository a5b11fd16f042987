package forget

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/lend"
)

const name = "forget"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "QueueKeyNeverForgotten",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer, keyflow.Analyzer, lend.Analyzer, summary.Analyzer},
	FactTypes: []analysis.Fact{new(keyFact)},
	Run:       run,
})

// Analyzer reports rate-limited workqueue keys that are never forgotten.
var Analyzer = Definition.Analyzer

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
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	keys := keyflow.Of(pass)
	a := keys.Analysis()
	keyflow.UseFacts(pass, a, ssaRes.SrcFuncs, settles, newKeyFact)
	keep := func(it *keyflow.Item) bool {
		switch {
		case !it.Queue.RateLimited:
			return false // a plain queue keeps no per-key state to forget
		case !a.Reaches(it, "AddRateLimited"):
			return false // never rate-limited: the limiter holds nothing for this key
		case statelessQueue(ssaRes.SrcFuncs, it):
			return false // its limiter's Forget does nothing: no state to leak
		}
		return true
	}
	for _, f := range a.Check(pass, keys.Items(), settles, "Forget", keep) {
		if f.Leak == nil {
			pass.Report(analysis.Diagnostic{Pos: f.Pos(), Message: fmt.Sprintf(
				"%s is never forgotten: the paths ending at lines %s stop retrying it without Forget, so its rate-limiter entry leaks for the life of the process and its next failure starts from an inflated backoff",
				f.Subject(), f.Lines)})
			continue
		}
		d := analysis.Diagnostic{Pos: f.Pos(), Message: fmt.Sprintf(
			"%s is neither forgotten nor re-queued %s: its rate-limiter entry leaks for the life of the process and its next failure starts from an inflated backoff",
			f.Subject(), f.Where())}
		// No fix where a Forget before the return would also run after
		// another path's re-queue, erasing the backoff it asked for.
		if fix := forgetFix(pass, *f.Leak, f.Names); fix != nil && !a.SharedReturn(*f.Leak, settles) {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		pass.Report(d)
	}
	reportEndless(pass, a, ssaRes.Pkg, ssaRes.SrcFuncs, keys.Items(), keep)
	return nil, nil
}

// reportEndless reports the workers that retry the NotFound of a deleted
// object forever (see endless).
func reportEndless(pass *analysis.Pass, a *keyflow.Analysis, pkg *ssa.Package, funcs []*ssa.Function, items []*keyflow.Item, keep func(*keyflow.Item) bool) {
	stored := ssax.StoredFuncs(funcs)
	seen := make(map[token.Pos]bool)
	for _, it := range items {
		if !keep(it) {
			continue
		}
		e := endlessRetry(a, pkg, stored, it)
		if e == nil || seen[e.requeue.Pos()] {
			continue
		}
		seen[e.requeue.Pos()] = true
		f := keyflow.Finding{Item: it, Names: keyflow.NamesOf(pass, it)}
		pass.Report(analysis.Diagnostic{Pos: e.requeue.Pos(), Message: fmt.Sprintf(
			"%s is re-queued with AddRateLimited on every error, with no NumRequeues limit, and %s returns the NotFound error of its read of the object the key names (line %d): once the object is deleted the key is retried forever and its rate-limiter entry is never released; treat NotFound as done (return nil), or give up after NumRequeues(key) reaches a limit and Forget the key",
			f.Subject(), e.sync.Name(), pass.Fset.Position(e.read.Pos()).Line)})
	}
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
