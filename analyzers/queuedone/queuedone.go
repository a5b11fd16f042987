package queuedone

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/lend"
)

const name = "queuedone"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "QueueKeyNotDone",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer, keyflow.Analyzer, lend.Analyzer, summary.Analyzer},
	FactTypes: []analysis.Fact{new(keyFact)},
	Run:       run,
})

// Analyzer reports workqueue keys taken with Get and never marked Done.
var Analyzer = Definition.Analyzer

var settles = keyflow.Rule{Methods: map[string]bool{"Done": true}}

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
	for _, f := range a.Check(pass, keys.Items(), settles, "Done", func(it *keyflow.Item) bool { return !privateQueue(it) && !takenByTest(a, it) }) {
		where := f.Where()
		if f.Leak == nil {
			where = "on the paths ending at lines " + f.Lines
		}
		pass.Report(analysis.Diagnostic{Pos: f.Pos(), Message: fmt.Sprintf(
			"%s is not marked Done %s: the queue keeps it as processing and never hands it out again; defer the Done right after Get",
			f.Subject(), where)})
	}
	return nil, nil
}
