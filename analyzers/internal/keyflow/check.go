package keyflow

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/crash"
)

// A Finding is what a rule reports about one item: a Leak, or, when the
// key meets the rule's settling method nowhere at all, one finding at the
// Get (Leak nil) listing the lines where its paths end — one finding says
// "never" better than one per return.
type Finding struct {
	Item  *Item
	Names Names
	Leak  *Leak
	Lines string
}

// Pos is where the finding is reported.
func (f Finding) Pos() token.Pos {
	if f.Leak == nil {
		return f.Item.Get.Pos()
	}
	return ReportPos(*f.Leak)
}

// Check applies rule to every Get of items (Package.Items) that keep
// accepts (nil keeps all), and returns the findings, one per line at most:
// a return reached from two Gets is one finding.
func (a *Analysis) Check(pass *analysis.Pass, items []*Item, rule Rule, settle string, keep func(*Item) bool) []Finding {
	var out []Finding
	seen := make(map[string]bool)
	for _, it := range items {
		if keep != nil && !keep(it) {
			continue
		}
		fs := a.check(pass, it, rule, settle)
		for _, f := range fs {
			p := pass.Fset.Position(f.Pos())
			if k := fmt.Sprintf("%s:%d", p.Filename, p.Line); !seen[k] {
				seen[k] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// check finds the leaks of one Get.
func (a *Analysis) check(pass *analysis.Pass, it *Item, rule Rule, settle string) []Finding {
	defer crash.At(pass.Fset, it.Get.Pos())
	names := NamesOf(pass, it)
	leaks := a.Leaks(it, rule)
	if len(leaks) > 1 && !a.Reaches(it, settle) {
		return []Finding{{Item: it, Names: names, Lines: Lines(pass.Fset, leaks)}}
	}
	var fs []Finding
	for i := range leaks {
		fs = append(fs, Finding{Item: it, Names: names, Leak: &leaks[i]})
	}
	return fs
}

// Where says where a leak's path ends, for a message.
func (f Finding) Where() string {
	if l := f.Leak; l != nil && l.Call != nil {
		where := "on a path through " + l.ViaName()
		if l.Exit != "" {
			where += " (it returns at " + l.Exit + " without settling it)"
		}
		return where
	}
	if f.Leak != nil && f.Leak.Return == nil {
		return "on the path back to the next Get()"
	}
	return "on this path"
}

// Subject names the key of a finding, for a message.
func (f Finding) Subject() string {
	if f.Leak == nil {
		return Describe(Leak{Item: f.Item, Fn: f.Item.Fn}, f.Names)
	}
	return Describe(*f.Leak, f.Names)
}
