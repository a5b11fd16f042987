package eventpath

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// A HandlerMethod is an OnAdd, OnUpdate or OnDelete method of one of the
// package's types, a value of which is registered with an informer.
type HandlerMethod struct {
	Fn   *ssa.Function
	Type *types.TypeName // the handler type
	Call ssa.CallInstruction
}

// HandlerMethods returns the OnAdd, OnUpdate and OnDelete methods declared
// in the package on the types of the values it hands to an informer's
// AddEventHandler (and its variants), in the order of the registrations.
// A handler whose type is not visible at the registration (an interface
// value, a parameter) is not found.
func (p *Paths) HandlerMethods() []HandlerMethod {
	var out []HandlerMethod
	seen := make(map[*ssa.Function]bool)
	for _, fn := range p.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || !kube.IsHandlerRegistration(ssax.Callee(call.Common())) {
					continue
				}
				args := call.Common().Args
				if !call.Common().IsInvoke() {
					args = args[1:] // the receiver
				}
				if len(args) == 0 {
					continue
				}
				mi, ok := args[0].(*ssa.MakeInterface)
				if !ok {
					continue // an interface value: its dynamic type is unknown
				}
				t := mi.X.Type()
				n := kube.Named(t)
				if n == nil || n.Obj().Pkg() != p.pkg.Pkg {
					continue // a library's handler (a filtering handler, say)
				}
				for _, hm := range kube.HandlerMethods {
					obj, _, _ := types.LookupFieldOrMethod(t, true, p.pkg.Pkg, hm.Name)
					m, ok := obj.(*types.Func)
					if !ok || m.Pkg() != p.pkg.Pkg {
						continue // promoted from an embedded library type
					}
					h := p.pkg.Prog.FuncValue(m)
					if h == nil || h.Blocks == nil || seen[h] {
						continue
					}
					seen[h] = true
					out = append(out, HandlerMethod{Fn: h, Type: n.Obj(), Call: call})
				}
			}
		}
	}
	return out
}
