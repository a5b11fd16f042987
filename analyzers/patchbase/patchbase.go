package patchbase

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "patchbase"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer},
	Run:       run,
})

// Analyzer reports patches whose base is the object they patch, changed
// after the base was taken: the patch is empty and the change never sent.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.CRClientPkg) == nil && kube.LookupPackage(pass.Pkg, "encoding/json") == nil {
		return nil, nil // neither MergeFrom nor marshalled patch documents in sight
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
			}
		}
	}
}

// objectOf sees through the conversions between an object's pointer and
// the interfaces it is handed as (client.Object, runtime.Object), through
// type assertions back, through the loads of a variable a closure captures
// (cell) and through a closure's free variables to what is bound to them,
// to the pointer itself: two values with the same
// objectOf are the same object.
func objectOf(v ssa.Value) ssa.Value {
	for {
		v = ssax.Unconvert(v)
		switch x := v.(type) {
		case *ssa.TypeAssert:
			if x.CommaOk {
				return v
			}
			v = x.X
		case *ssa.UnOp:
			stored := cell(x)
			if stored == nil {
				return v
			}
			v = stored
		case *ssa.FreeVar:
			b := binding(x) // a closure's free variable is the value bound to it
			if b == nil {
				return v
			}
			v = b
		default:
			return v
		}
	}
}

// cell returns the value a load reads from a variable that a closure
// captures (SSA keeps it in memory and loads it at each use), when that
// value is the same at every load: the variable holds a pointer or an
// interface, is assigned once, and neither its address nor the closures
// that capture it write it or hand it on. Otherwise nil.
func cell(load *ssa.UnOp) ssa.Value {
	if load.Op != token.MUL {
		return nil
	}
	addr := load.X
	if fv, ok := addr.(*ssa.FreeVar); ok {
		addr = binding(fv) // a load in the closure itself
	}
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil
	}
	switch types.Unalias(load.Type()).Underlying().(type) {
	case *types.Pointer, *types.Interface:
	default:
		return nil // a struct variable is the object itself, not a reference to it
	}
	var stored ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc || stored != nil {
				return nil // stored to elsewhere, or assigned twice
			}
			stored = ref.Val
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return nil
			}
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			fn := ref.Fn.(*ssa.Function)
			for i, b := range ref.Bindings {
				if b != alloc {
					continue
				}
				for _, use := range *fn.FreeVars[i].Referrers() {
					if u, ok := use.(*ssa.UnOp); !ok || u.Op != token.MUL {
						if _, dbg := use.(*ssa.DebugRef); !dbg {
							return nil // written, or handed on, in the closure
						}
					}
				}
			}
		default:
			return nil
		}
	}
	return stored
}

// binding returns what the one closure made of fv's function binds to
// fv, or nil.
func binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	refs := fn.Referrers()
	if i < 0 || refs == nil {
		return nil
	}
	var found ssa.Value
	for _, ref := range *refs {
		mc, ok := ref.(*ssa.MakeClosure)
		if !ok || mc.Fn != fn || found != nil {
			return nil // the function is also used otherwise, or made twice
		}
		found = mc.Bindings[i]
	}
	return found
}

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
	for range 64 {
		if v == obj {
			return true, top
		}
		if load, isLoad := v.(*ssa.UnOp); isLoad {
			if stored := cell(load); stored != nil {
				v = stored
				continue
			}
		}
		switch x := v.(type) {
		case *ssa.FieldAddr:
			if f := ssax.FieldOfAddr(x); f != nil {
				top = f.Name()
			}
			v = x.X
		case *ssa.Field:
			if st, isStruct := x.X.Type().Underlying().(*types.Struct); isStruct && x.Field < st.NumFields() {
				top = st.Field(x.Field).Name()
			}
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Index:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.Lookup:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false, ""
			}
			v = x.X
		case *ssa.FreeVar:
			if v = binding(x); v == nil {
				return false, ""
			}
		case *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.ChangeType:
			v = ssax.Unconvert(v)
		case *ssa.TypeAssert:
			if x.CommaOk {
				return false, ""
			}
			v = x.X
		default:
			return false, ""
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
