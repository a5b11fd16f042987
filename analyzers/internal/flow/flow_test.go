package flow_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
)

// probe reports, at each call of origins, origin, uses or reaching in the fixture,
// what flow finds for the call's first argument under the policy its
// second names; at a call of variadic, what flow.Variadic finds its
// final argument holds.
var probe = &analysis.Analyzer{
	Name:     "flowprobe",
	Doc:      "test probe for flow",
	Requires: []*analysis.Analyzer{kubessa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := kubessa.Of(pass)
		if res == nil {
			return nil, nil
		}
		for _, fn := range res.SrcFuncs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(*ssa.Call)
					if !ok || len(call.Call.Args) != 2 {
						continue
					}
					callee := call.Call.StaticCallee()
					if callee == nil || callee.Pkg != res.Pkg {
						continue
					}
					if callee.Name() == "variadic" {
						vs, ok := flow.Variadic(call.Call.Args[1])
						var got []string
						for _, v := range vs {
							got = append(got, describe(flow.Origin(v, flow.Conversions)))
						}
						if !ok {
							got = append(got, "unknown")
						}
						pass.Reportf(call.Pos(), "variadic: %s", strings.Join(got, ", "))
						continue
					}
					arg := call.Call.Args[0]
					if mi, ok := arg.(*ssa.MakeInterface); ok {
						arg = mi.X // the conversion to any that the probe's parameter makes
					}
					policy := policyOf(call.Call.Args[1])
					var got []string
					switch callee.Name() {
					case "origins":
						vs, _ := flow.Origins(arg, policy)
						for _, v := range vs {
							got = append(got, describe(v))
						}
					case "origin":
						got = append(got, describe(flow.Origin(arg, policy)))
					case "uses":
						flow.Uses(arg, policy, func(use ssa.Instruction, _ ssa.Value) bool {
							got = append(got, describeInstr(use))
							return true
						})
					case "reaching":
						load := flow.Origin(arg, flow.Conversions).(*ssa.UnOp) // an error is handed to any by ChangeInterface
						writes, complete := flow.Reaching(load, func(instr ssa.Instruction) bool {
							st, isStore := instr.(*ssa.Store)
							v, _ := instr.(ssa.Value)
							return v == load.X || isStore && st.Addr == load.X
						})
						for _, w := range writes {
							if st, ok := w.(*ssa.Store); ok {
								got = append(got, "store "+describe(st.Val))
							} else {
								got = append(got, describeInstr(w))
							}
						}
						if !complete {
							got = append(got, "incomplete")
						}
					default:
						continue
					}
					pass.Reportf(call.Pos(), "%s: %s", callee.Name(), strings.Join(got, ", "))
				}
			}
		}
		return nil, nil
	},
}

var policies = map[string]flow.Policy{
	"Same": flow.Same, "Within": flow.Within, "Fields": flow.Fields, "Extracts": flow.Extracts,
	"Phis": flow.Phis, "Conversions": flow.Conversions,
}

func policyOf(v ssa.Value) flow.Policy {
	c, ok := v.(*ssa.Const)
	if !ok {
		panic(fmt.Sprintf("policy %v is not a constant", v))
	}
	var p flow.Policy
	for _, name := range strings.Split(strings.Trim(c.Value.ExactString(), `"`), "|") {
		bit, ok := policies[name]
		if !ok {
			panic("unknown policy " + name)
		}
		p |= bit
	}
	return p
}

func describe(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Parameter:
		return "param " + v.Name()
	case *ssa.FreeVar:
		return "freevar " + v.Name()
	case *ssa.Call:
		return "call " + callName(v.Common())
	case *ssa.UnOp:
		return "load"
	}
	return strings.ToLower(reflect.TypeOf(v).Elem().Name())
}

func describeInstr(instr ssa.Instruction) string {
	if c, ok := instr.(ssa.CallInstruction); ok {
		return "call " + callName(c.Common())
	}
	if v, ok := instr.(ssa.Value); ok {
		return describe(v)
	}
	return strings.ToLower(reflect.TypeOf(instr).Elem().Name())
}

func callName(c *ssa.CallCommon) string {
	if c.IsInvoke() {
		return c.Method.Name()
	}
	if fn := c.StaticCallee(); fn != nil {
		return fn.Name()
	}
	return c.Value.Name()
}

func fixture(mod string) string { return filepath.Join("..", "..", "..", "testdata", "src", mod) }

func TestCurrentClientGo(t *testing.T) { analysistest.Run(t, fixture("current"), probe, "./flow") }

func TestLegacyClientGo(t *testing.T) { analysistest.Run(t, fixture("legacy"), probe, "./flow") }
