package patchbase

import (
	"fmt"
	"go/token"
	"go/types"
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
	for _, fn := range res.SrcFuncs {
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
	fn *ssa.Function
	i  int
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
// type assertions back, and through the loads of a variable a closure
// captures (cell), to the pointer itself: two values with the same
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
	alloc, ok := load.X.(*ssa.Alloc)
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

// A change is an instruction that changes an object, described for a
// message.
type change struct {
	instr ssa.Instruction
	what  string // "obj.Spec.Replicas is set", "controllerutil.AddFinalizer changes it"
}

// changes reports whether instr changes the object obj points to: a store
// into it or into memory reached from it (a field, a slice element of a
// field, a map held in a field), a well-known setter or helper
// (kube.ChangedArg), or a function of the package that changes the
// argument it is handed.
func (c *checker) changes(instr ssa.Instruction, obj ssa.Value) *change {
	switch instr := instr.(type) {
	case *ssa.Store:
		if reachedFrom(instr.Addr, obj) {
			return &change{instr, c.describeStore(instr.Pos(), "set")}
		}
	case *ssa.MapUpdate:
		if reachedFrom(instr.Map, obj) {
			return &change{instr, c.describeStore(instr.Pos(), "set")}
		}
	case ssa.CallInstruction:
		common := instr.Common()
		args := common.Args
		if common.IsInvoke() {
			args = append([]ssa.Value{common.Value}, args...)
		}
		if callee := ssax.Callee(common); callee != nil {
			if i, ok := kube.ChangedArg(callee); ok && i < len(args) && reachedFrom(args[i], obj) {
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
			if j := i + offset; j < len(fn.Params) && reachedFrom(a, obj) && c.writesParam(fn, j) != nil {
				return &change{instr, c.callName(instr, fn.Name()) + " changes it"}
			}
		}
	}
	return nil
}

// writesParam returns how fn changes the object its i-th parameter points
// to, or nil. A function being summarised that reaches itself sees nil.
func (c *checker) writesParam(fn *ssa.Function, i int) *change {
	key := paramKey{fn, i}
	if ch, ok := c.writes[key]; ok {
		return ch
	}
	c.writes[key] = nil
	if _, isPtr := fn.Params[i].Type().Underlying().(*types.Pointer); !isPtr && !types.IsInterface(fn.Params[i].Type()) {
		return nil // a copy: what the function changes stays in it
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ch := c.changes(instr, fn.Params[i]); ch != nil {
				c.writes[key] = ch
				return ch
			}
		}
	}
	return nil
}

// reachedFrom reports whether v is obj or memory reached from it: its
// fields, what its pointer, slice and map fields hold, through loads,
// slicing and conversions.
func reachedFrom(v, obj ssa.Value) bool {
	for range 64 {
		if v == obj {
			return true
		}
		if load, ok := v.(*ssa.UnOp); ok {
			if stored := cell(load); stored != nil {
				v = stored
				continue
			}
		}
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.Index:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.Lookup:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.ChangeType:
			v = ssax.Unconvert(v)
		case *ssa.TypeAssert:
			if x.CommaOk {
				return false
			}
			v = x.X
		default:
			return false
		}
	}
	return false
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
