package patchbase

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "patchbase"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "PatchBaseChangedWithObject",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer},
	Run:       run,
})

// Analyzer reports patches whose base is the object they patch, changed
// after the base was taken: the patch is empty and the change never sent.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.CRClientPkg) == nil && kube.LookupPackage(pass.Pkg, "encoding/json") == nil && kube.LookupPackage(pass.Pkg, runtimePkg) == nil {
		return nil, nil // neither MergeFrom, marshalled patch documents nor unstructured snapshots in sight
	}
	res := kubessa.Of(pass)
	if res == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	c := &checker{pass: pass, pkg: res.Pkg, writes: make(map[paramKey]*change)}
	for _, fn := range res.Checked {
		c.function(fn)
	}
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	pkg  *ssa.Package
	// writes memoises which parameters of the package's functions they
	// change (nil: not changed, or being computed).
	writes map[paramKey]*change
}

type paramKey struct {
	fn     *ssa.Function
	i      int
	status bool
}

func (c *checker) function(fn *ssa.Function) {
	defer crash.At(c.pass.Fset, fn.Pos())
	if strings.HasSuffix(c.pass.Fset.Position(fn.Pos()).Filename, "_test.go") {
		return // tests patch fakes and check what the patch holds on purpose
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := ssax.Callee(call.Common())
			switch {
			case kube.IsMergeFromFunc(callee):
				c.mergeFrom(call, callee)
			case kube.IsTwoWayPatchFunc(callee):
				c.twoWay(call, callee)
			case isToUnstructured(callee):
				c.unstructuredSnapshot(fn, call)
			}
		}
	}
}

// objectOf is the object v is: two values with the same objectOf are the
// same object, handed on as client.Object or runtime.Object, asserted
// back, captured by a closure or kept in a variable assigned once.
func objectOf(v ssa.Value) ssa.Value { return flow.Origin(v, flow.Same) }

// A change is an instruction that changes an object, described for a
// message.
type change struct {
	instr ssa.Instruction
	what  string // "obj.Spec.Replicas is set", "controllerutil.AddFinalizer changes it"
}

// changes reports whether instr changes the object obj points to: a store
// into it or into memory reached from it (a field, a slice element of a
// field, a map held in a field), a well-known setter or helper
// (kube.SetterOf), or a function of the package that changes the
// argument it is handed. With status set, only changes to the object's
// Status field count: what a patch of the status subresource sends.
func (c *checker) changes(instr ssa.Instruction, obj ssa.Value, status bool) *change {
	// in reports whether v is memory the change must touch.
	in := func(v ssa.Value) bool {
		ok, top := reached(v, obj)
		return ok && (!status || top == "Status")
	}
	switch instr := instr.(type) {
	case *ssa.Store:
		if in(instr.Addr) {
			return &change{instr, c.describeStore(instr.Pos(), "set")}
		}
	case *ssa.MapUpdate:
		if in(instr.Map) {
			return &change{instr, c.describeStore(instr.Pos(), "set")}
		}
	case ssa.CallInstruction:
		common := instr.Common()
		args := common.Args
		if common.IsInvoke() {
			args = append([]ssa.Value{common.Value}, args...)
		}
		if callee := ssax.Callee(common); callee != nil {
			if s, ok := kube.SetterOf(callee); ok && s.Arg < len(args) && in(args[s.Arg]) {
				return &change{instr, c.callName(instr, qualified(callee)) + " changes it"}
			}
		}
		if common.IsInvoke() {
			return nil
		}
		fn, offset := ssax.Func(c.pkg, common.Value)
		if fn == nil {
			return nil
		}
		for i, a := range common.Args {
			j := i + offset
			if j >= len(fn.Params) {
				continue
			}
			ok, top := reached(a, obj)
			switch {
			case !ok:
				continue
			case top == "" && c.writesParam(fn, j, status) != nil, // the object itself
				top != "" && (!status || top == "Status") && c.writesParam(fn, j, false) != nil:
				return &change{instr, c.callName(instr, fn.Name()) + " changes it"}
			}
		}
	}
	return nil
}

// writesParam returns how fn changes the object its i-th parameter points
// to (its Status only, with status set), or nil. A function being
// summarised that reaches itself sees nil.
func (c *checker) writesParam(fn *ssa.Function, i int, status bool) *change {
	key := paramKey{fn, i, status}
	if ch, ok := c.writes[key]; ok {
		return ch
	}
	c.writes[key] = nil
	if _, isPtr := fn.Params[i].Type().Underlying().(*types.Pointer); !isPtr && !types.IsInterface(fn.Params[i].Type()) {
		return nil // a copy: what the function changes stays in it
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ch := c.changes(instr, fn.Params[i], status); ch != nil {
				c.writes[key] = ch
				return ch
			}
		}
	}
	return nil
}

// reached reports whether v is obj or memory reached from it: its fields,
// what its pointer, slice and map fields hold, through loads, slicing and
// conversions; top is the field of obj it is reached through ("Status",
// "ObjectMeta", "Spec"), "" for obj itself.
func reached(v, obj ssa.Value) (ok bool, top string) {
	for x := range flow.Chain(v, flow.Within) {
		if x == obj {
			return true, top
		}
		switch x.(type) {
		case *ssa.Field, *ssa.FieldAddr:
			if f := fieldOf(x); f != nil {
				top = f.Name()
			}
		}
	}
	return false, ""
}

// reachedFrom reports whether v is obj or memory reached from it.
func reachedFrom(v, obj ssa.Value) bool {
	ok, _ := reached(v, obj)
	return ok
}

// describeStore names the place a store at pos writes ("obj.Spec.Replicas
// is set at line 12"), from the source.
func (c *checker) describeStore(pos token.Pos, verb string) string {
	if lhs := c.assignedAt(pos); lhs != "" {
		return lhs + " is " + verb
	}
	return "it is changed"
}

// qualified names a library function for a message: controllerutil.AddFinalizer,
// or (metav1.Object).SetLabels for a method.
func qualified(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil {
		_, recv := kube.PathName(sig.Recv().Type())
		return recv + "." + fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

// callName is the function a call names as written
// ("controllerutil.AddFinalizer", "obj.SetLabels"), or def.
func (c *checker) callName(call ssa.CallInstruction, def string) string {
	if e := c.callAt(call.Pos()); e != nil {
		return types.ExprString(e.Fun)
	}
	return def
}

// line is the line of pos, for messages.
func (c *checker) line(pos token.Pos) int { return c.pass.Fset.Position(pos).Line }

// where describes a change for a message: what it does and on which line.
func (c *checker) where(ch *change) string {
	if !ch.instr.Pos().IsValid() {
		return ch.what
	}
	return fmt.Sprintf("%s (line %d)", ch.what, c.line(ch.instr.Pos()))
}

// fieldOf is the struct field x.f or &x.f selects.
func fieldOf(v ssa.Value) *types.Var {
	if f := ssax.FieldOfAddr(v); f != nil {
		return f
	}
	if f, ok := v.(*ssa.Field); ok {
		if st, isStruct := f.X.Type().Underlying().(*types.Struct); isStruct && f.Field < st.NumFields() {
			return st.Field(f.Field)
		}
	}
	return nil
}
