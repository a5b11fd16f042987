package flow_test

import (
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
)

// A lister's Get(name) (obj, err) whose object a sync function keeps, one
// whose results it ignores, and a comma-ok lookup of a work queue's set.
func TestResult(t *testing.T) {
	fn := build(t, `package p
type Pod struct{ Name string }
func get(name string) (*Pod, error) { return nil, nil }
func sync(m map[string]bool) string {
	pod, _ := get("a")
	get("b")
	_, ok := m["k"]
	if ok {
		return pod.Name
	}
	return ""
}`, "sync")
	var calls []*ssa.Call
	var lookup *ssa.Lookup
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Call:
				calls = append(calls, instr)
			case *ssa.Lookup:
				lookup = instr
			}
		}
	}
	if len(calls) != 2 || lookup == nil {
		t.Fatalf("sync has %d calls and lookup %v, want 2 and one", len(calls), lookup)
	}
	call, ignored := calls[0], calls[1]
	if x, _ := flow.Result(call, 0).(*ssa.Extract); x == nil || x.Tuple != call || x.Index != 0 {
		t.Errorf("Result(get, 0) = %v, want the extract of the object", x)
	}
	if x := flow.Result(ignored, 0); x != nil {
		t.Errorf("Result(get(\"b\"), 0) = %v, want nil: the results are ignored", x)
	}
	if x, _ := flow.Result(lookup, 1).(*ssa.Extract); x == nil || x.Index != 1 {
		t.Errorf("Result(lookup, 1) = %v, want the extract of ok", x)
	}
	if x := flow.Result(call, 2); x != nil {
		t.Errorf("Result(get, 2) = %v, want nil: get has two results", x)
	}
}
