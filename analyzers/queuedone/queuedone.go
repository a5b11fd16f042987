package queuedone

import (
	"fmt"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/directive"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/manual"
)

const name = "queuedone"

// Analyzer reports workqueue keys taken with Get and never marked Done.
var Analyzer = &analysis.Analyzer{
	Name:     name,
	Doc:      manual.MustParse(name, DocSource).AnalyzerDoc(),
	URL:      "https://github.com/ctrllint/ctrllint/blob/main/docs/analyzers/queuedone.md",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run:      directive.Honour(name, run),
}

var settles = keyflow.Rule{Methods: map[string]bool{"Done": true}}

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.WorkqueuePkg) == nil {
		return nil, nil // no workqueue in sight
	}
	ssaRes := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	a := keyflow.New(ssaRes.Pkg)
	reported := make(map[string]bool)
	for _, it := range a.Gets(ssaRes.SrcFuncs) {
		names := keyflow.NamesOf(pass, it)
		leaks := a.Leaks(it, settles)
		if len(leaks) > 1 && !a.Reaches(it, "Done") {
			// Nothing marks this key Done anywhere: one finding at the Get.
			pass.Report(analysis.Diagnostic{Pos: it.Get.Pos(), Message: fmt.Sprintf(
				"%s is never marked Done (the paths ending at lines %s): the queue keeps it as processing and never hands it out again; defer the Done right after Get",
				keyflow.Describe(keyflow.Leak{Item: it, Fn: it.Fn}, names), keyflow.Lines(pass.Fset, leaks))})
			continue
		}
		for _, l := range leaks {
			pos := keyflow.ReportPos(l)
			where := "on this path"
			if l.Return == nil {
				where = "on the path back to the next Get()"
			}
			p := pass.Fset.Position(pos)
			if k := fmt.Sprintf("%s:%d", p.Filename, p.Line); reported[k] {
				continue // the same return reached from two Gets
			} else {
				reported[k] = true
			}
			pass.Report(analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(
				"%s is not marked Done %s: the queue keeps it as processing and never hands it out again; defer the Done right after Get",
				keyflow.Describe(l, names), where)})
		}
	}
	return nil, nil
}
