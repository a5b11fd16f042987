package lend

import (
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// A limit is kept once per place, and only when a run is lent.
func TestLimitHit(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("a.go", -1, 100)
	f.SetLines([]int{0, 10, 20})
	pos := f.Pos(12)
	a := &analysis.Analyzer{Name: "bounded"}
	pkg := types.NewPackage("example.com/a", "a")

	unlent := &analysis.Pass{Analyzer: a, Fset: fset, Pkg: pkg, ResultOf: map[*analysis.Analyzer]any{Analyzer: (*Run)(nil)}}
	LimitHit(unlent, pos, "maxDepth") // must not panic, and keeps nothing

	run := NewRun()
	pass := &analysis.Pass{Analyzer: a, Fset: fset, Pkg: pkg, ResultOf: map[*analysis.Analyzer]any{Analyzer: run}}
	LimitHit(pass, pos, "maxDepth")
	LimitHit(pass, pos, "maxDepth")
	LimitHit(pass, f.Pos(2), "maxDepth")
	got := run.Limits.All()
	if len(got) != 2 || got[0].Pos.Line != 1 || got[1].Pos.Line != 2 || got[1].Analyzer != "bounded" || got[1].Package != "example.com/a" || got[1].What != "maxDepth" {
		t.Errorf("limits = %+v; want lines 1 and 2 of a.go, once each", got)
	}
	if (*Limits)(nil).All() != nil {
		t.Error("a nil Limits returned limits")
	}
}
