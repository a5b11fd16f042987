package finalizerpatch

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
)

// A change is an instruction that changes an object's finalizers,
// described for a message.
type change struct {
	instr ssa.Instruction
	what  string // "controllerutil.AddFinalizer", "obj.Finalizers = ..."
}

// finalizerChange reports whether instr changes the finalizers of obj:
//
//   - a store to obj.Finalizers (or obj.ObjectMeta.Finalizers), or to an
//     element of that list;
//   - a setter of the finalizers (kube.SetterOf: controllerutil.AddFinalizer
//     and RemoveFinalizer, SetFinalizers of metav1.Object, ObjectMeta or
//     Unstructured) called on obj;
//   - a function of the package, or of another package of the module (its
//     fact), that does one of these to the parameter obj is handed;
//   - a call of a func-valued parameter of the function (modify(obj)) when a
//     call of the function in the package hands it a function that does.
func (c *checker) finalizerChange(instr ssa.Instruction, obj ssa.Value) *change {
	switch x := instr.(type) {
	case *ssa.Store:
		if isFinalizers(x.Addr, obj) {
			return &change{x, c.stored(x)}
		}
		if ia, ok := x.Addr.(*ssa.IndexAddr); ok && kubessa.MetaField(ia.X, kube.FieldFinalizers) == obj {
			return &change{x, c.stored(x)}
		}
	case *ssa.Call:
		common := x.Common()
		args := common.Args
		if common.IsInvoke() {
			args = append([]ssa.Value{common.Value}, args...)
		}
		callee := ssax.Callee(common)
		if s, ok := kube.SetterOf(callee); ok {
			if s.Field == kube.FieldFinalizers && s.Arg < len(args) && objectOf(args[s.Arg]) == obj {
				return &change{x, c.callName(x, callee)}
			}
			return nil
		}
		if common.IsInvoke() {
			return nil // an interface method other than the setters: unknown
		}
		if fn, offset := ssax.Func(c.pkg, common.Value); fn != nil {
			for i, a := range common.Args {
				if objectOf(a) == obj && i+offset < len(fn.Params) && c.writesParam(fn, i+offset) != nil {
					return &change{x, c.callName(x, callee)}
				}
			}
			return nil
		}
		if callee != nil && callee.Pkg() != nil && callee.Pkg() != c.pass.Pkg {
			if f := c.factOf(callee); f != nil {
				for _, p := range f.Params {
					if p < len(args) && objectOf(args[p]) == obj {
						return &change{x, c.callName(x, callee)}
					}
				}
			}
			return nil
		}
		if p, ok := common.Value.(*ssa.Parameter); ok {
			for i, a := range common.Args {
				if objectOf(a) == obj {
					if via := c.handedIn(p, i); via != "" {
						return &change{x, fmt.Sprintf("%s (%s)", c.callName(x, nil), via)}
					}
				}
			}
		}
	}
	return nil
}

// isFinalizers reports whether addr is &obj.Finalizers, the ObjectMeta
// field.
func isFinalizers(addr, obj ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	f := ssax.FieldOfAddr(fa)
	return f != nil && f.Name() == kube.FieldFinalizers && kube.Is(fa.X.Type(), kube.MetaV1Pkg, "ObjectMeta") &&
		objectOf(fa.X) == obj
}

// writesParam returns how fn changes the finalizers of the object its
// i-th parameter holds, or nil. A function being summarised that reaches
// itself sees nil.
func (c *checker) writesParam(fn *ssa.Function, i int) *change {
	key := paramKey{fn, i}
	if ch, ok := c.writes[key]; ok {
		return ch
	}
	c.writes[key] = nil
	if !isObject(fn.Params[i].Type()) {
		return nil // a value: what the function changes stays in its copy
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ch := c.finalizerChange(instr, fn.Params[i]); ch != nil {
				c.writes[key] = ch
				return ch
			}
		}
	}
	return nil
}

// handedIn describes the function a call of fn in the package hands it
// as func-valued parameter p that changes the finalizers of the object
// passed as its i-th argument ("the func literal at line 30 calls
// controllerutil.AddFinalizer"), or "". kubermatic's updateCluster(ctx,
// cluster, modify) copies the cluster, runs modify on it and patches it;
// its callers add finalizers in the modify they pass.
func (c *checker) handedIn(p *ssa.Parameter, i int) string {
	fn := p.Parent()
	at := slices.Index(fn.Params, p)
	if at < 0 {
		return ""
	}
	for _, call := range c.callersOf(fn) {
		args := call.Call.Args
		if at >= len(args) {
			continue
		}
		g, offset := ssax.Func(c.pkg, args[at])
		if g == nil || i+offset >= len(g.Params) {
			continue
		}
		if ch := c.writesParam(g, i+offset); ch != nil {
			what := "the function"
			if g.Parent() != nil {
				what = "the func literal"
			} else {
				what = g.Name()
			}
			return fmt.Sprintf("%s passed at line %d calls %s", what, c.line(call.Pos()), ch.what)
		}
	}
	return ""
}

// callersOf returns the static calls of fn in the package, outside tests.
func (c *checker) callersOf(fn *ssa.Function) []*ssa.Call {
	if c.callers == nil {
		c.callers = make(map[*ssa.Function][]*ssa.Call)
		for _, f := range c.funcs {
			if isTest(c.pass, f) {
				continue
			}
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					if call, ok := instr.(*ssa.Call); ok {
						if callee := call.Call.StaticCallee(); callee != nil && callee.Pkg == c.pkg {
							c.callers[callee] = append(c.callers[callee], call)
						}
					}
				}
			}
		}
	}
	return c.callers[fn]
}

// stored names a store for a message, from the source: "obj.Finalizers = ...".
func (c *checker) stored(st *ssa.Store) string {
	if lhs := assignedAt(c.pass, st.Pos()); lhs != "" {
		return lhs + " = ..."
	}
	return "a store to its finalizers"
}

// callName is the function a call names as written
// ("controllerutil.AddFinalizer", "obj.SetFinalizers"), or its name.
func (c *checker) callName(call *ssa.Call, callee *types.Func) string {
	if e := edit.CallAt(c.pass, call.Pos()); e != nil {
		return types.ExprString(e.Fun)
	}
	if callee != nil {
		return ssax.FuncName(callee, c.pass.Pkg)
	}
	return "a call"
}

// finalizersFact marks a function or method of the module that changes
// the finalizers of objects handed to it: parameters Params (a method's
// receiver is parameter 0, as in SSA), for the packages that call it.
type finalizersFact struct {
	Params []int
}

func (*finalizersFact) AFact() {}

func (f *finalizersFact) String() string {
	parts := make([]string, len(f.Params))
	for i, p := range f.Params {
		parts[i] = fmt.Sprint(p)
	}
	return "changesFinalizers(" + strings.Join(parts, ", ") + ")"
}

// factOf imports the fact of fn, a function or method of another package,
// nil for none.
func (c *checker) factOf(fn *types.Func) *finalizersFact {
	fn = fn.Origin()
	if f, ok := c.imported[fn]; ok {
		return f
	}
	var f *finalizersFact
	if summary.Visible(c.pass, fn) {
		if g := new(finalizersFact); c.pass.ImportObjectFact(fn, g) {
			f = g
		}
	}
	c.imported[fn] = f
	return f
}

// export exports the summaries of the package's exported functions and
// methods: which parameters' finalizers they change.
func (c *checker) export(funcs []*ssa.Function) {
	for _, fn := range funcs {
		obj, _ := fn.Object().(*types.Func)
		if fn.Parent() != nil || obj == nil || !obj.Exported() || fn.Blocks == nil || isTest(c.pass, fn) {
			continue // only what importers can call by name
		}
		var f finalizersFact
		for i := range fn.Params {
			if c.writesParam(fn, i) != nil {
				f.Params = append(f.Params, i)
			}
		}
		if len(f.Params) > 0 {
			c.pass.ExportObjectFact(obj, &f)
		}
	}
}
