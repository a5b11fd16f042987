package finalizer

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

func isMetaStruct(t types.Type) bool { return kube.Is(t, kube.MetaV1Pkg, "ObjectMeta") }

// deletionCheck recognises a condition that tells whether obj is being
// deleted: obj.DeletionTimestamp != nil (or == nil), a getter's result
// compared with nil, DeletionTimestamp.IsZero(), and their negations.
// ifTrue says whether obj is being deleted when the condition holds.
func deletionCheck(cond ssa.Value) (obj ssa.Value, ifTrue bool) {
	switch x := cond.(type) {
	case *ssa.UnOp:
		if x.Op == token.NOT {
			obj, ifTrue = deletionCheck(x.X)
			return obj, !ifTrue
		}
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return nil, false
		}
		other := x.X
		if isNil(x.X) {
			other = x.Y
		} else if !isNil(x.Y) {
			return nil, false
		}
		if o := kubessa.MetaField(other, "DeletionTimestamp"); o != nil {
			return o, x.Op == token.NEQ
		}
	case *ssa.Call:
		fn := ssax.Callee(&x.Call)
		if fn == nil || fn.Name() != "IsZero" || x.Call.IsInvoke() || len(x.Call.Args) != 1 {
			return nil, false
		}
		if sig := fn.Signature(); sig.Recv() == nil || !kube.Is(sig.Recv().Type(), kube.MetaV1Pkg, "Time") {
			return nil, false
		}
		if o := kubessa.MetaField(x.Call.Args[0], "DeletionTimestamp"); o != nil {
			return o, false
		}
	}
	return nil, false
}

func isNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// opKind is what a finalizer operation does.
type opKind int

const (
	addOp opKind = iota + 1
	removeOp
)

// finalizerOp recognises an instruction that adds a finalizer to or removes
// one from an object: controllerutil.AddFinalizer and RemoveFinalizer,
// obj.SetFinalizers(v) and a store to obj.Finalizers of a value computed
// from the object's own finalizers (append: an add; a call named for
// removal, such as removeString(obj.Finalizers, f) or
// sets.New(obj.Finalizers...).Delete(f).UnsortedList(): a removal).
func finalizerOp(instr ssa.Instruction) (obj ssa.Value, kind opKind) {
	switch x := instr.(type) {
	case ssa.CallInstruction:
		common := x.Common()
		fn := ssax.Callee(common)
		if fn == nil {
			return nil, 0
		}
		switch {
		case kube.IsFunc(fn, kube.ControllerUtilPkg, "AddFinalizer") && len(common.Args) == 2:
			return kubessa.MetaObject(common.Args[0]), addOp
		case kube.IsFunc(fn, kube.ControllerUtilPkg, "RemoveFinalizer") && len(common.Args) == 2:
			return kubessa.MetaObject(common.Args[0]), removeOp
		case fn.Name() == "SetFinalizers":
			var recv, val ssa.Value
			switch {
			case common.IsInvoke() && len(common.Args) == 1:
				recv, val = common.Value, common.Args[0]
			case !common.IsInvoke() && len(common.Args) == 2:
				recv, val = common.Args[0], common.Args[1]
			default:
				return nil, 0
			}
			o := kubessa.MetaObject(recv)
			return o, sliceOp(val, o)
		}
	case *ssa.Store:
		fa, ok := x.Addr.(*ssa.FieldAddr)
		if !ok {
			return nil, 0
		}
		if f := ssax.FieldOfAddr(fa); f == nil || f.Name() != kube.FieldFinalizers || !isMetaStruct(fa.X.Type()) {
			return nil, 0
		}
		o := kubessa.MetaObject(fa.X)
		return o, sliceOp(x.Val, o)
	}
	return nil, 0
}

// sliceOp says whether a new finalizer list v of obj adds to its current
// finalizers or removes from them; 0 when it cannot tell (a list built
// from elsewhere, a call that does not say it removes).
func sliceOp(v ssa.Value, obj ssa.Value) opKind {
	call, ok := v.(*ssa.Call)
	if !ok {
		return 0
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); ok {
		if b.Name() == "append" && len(call.Call.Args) == 2 && fromFinalizers(call.Call.Args[0], obj, 0) {
			return addOp
		}
		return 0
	}
	if removes(call, obj, 0) {
		return removeOp
	}
	return 0
}

// removes reports whether a chain of calls computing a finalizer list
// includes one named for removal that is given obj's finalizers.
func removes(call *ssa.Call, obj ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	fn := ssax.Callee(&call.Call)
	args := call.Call.Args
	if call.Call.IsInvoke() {
		args = append([]ssa.Value{call.Call.Value}, args...)
	}
	if fn != nil && removalName(fn.Name()) {
		for _, a := range args {
			if fromFinalizers(a, obj, 0) {
				return true
			}
		}
	}
	for _, a := range args {
		if c, ok := flow.Origin(a, flow.Conversions).(*ssa.Call); ok && removes(c, obj, depth+1) {
			return true
		}
	}
	return false
}

func removalName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"remove", "delete", "filter", "without", "except", "drop", "strip"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// fromFinalizers reports whether v is obj's current finalizer list, or
// made from it by a constructor call (sets.New(obj.Finalizers...)).
func fromFinalizers(v ssa.Value, obj ssa.Value, depth int) bool {
	v = flow.Origin(v, flow.Conversions)
	if o := kubessa.MetaField(v, kube.FieldFinalizers); o != nil {
		return o == obj
	}
	if depth > 3 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Call:
		for _, a := range x.Call.Args {
			if fromFinalizers(a, obj, depth+1) {
				return true
			}
		}
	case *ssa.Slice:
		return fromFinalizers(x.X, obj, depth+1)
	}
	return false
}

// writeOf recognises a call that writes obj to the API server with its
// metadata: an Update, Patch or Apply (of a client, a typed client, a
// patch helper such as cluster-api's patch.Helper) given the object, or a
// helper of the package whose name starts with update or patch. Status
// writes are not writes of the finalizers. It returns the name to show.
func writeOf(common *ssa.CallCommon, obj ssa.Value) (string, bool) {
	fn := ssax.Callee(common)
	if fn == nil {
		return "", false
	}
	name := fn.Name()
	lower := strings.ToLower(name)
	if !strings.HasPrefix(lower, "update") && !strings.HasPrefix(lower, "patch") && !strings.HasPrefix(lower, "apply") {
		return "", false
	}
	if strings.Contains(lower, "status") {
		return "", false
	}
	var recv types.Type
	if common.IsInvoke() {
		recv = common.Value.Type()
	} else if sig := fn.Signature(); sig.Recv() != nil {
		recv = sig.Recv().Type()
	}
	if _, rn := kube.PathName(recv); rn == "SubResourceWriter" || rn == "StatusWriter" || rn == "SubResourceClient" {
		return "", false
	}
	for _, a := range common.Args {
		if kubessa.MetaObject(a) == obj {
			return name, true
		}
	}
	return "", false
}

// containsCheck recognises controllerutil.ContainsFinalizer(obj, f) and
// its negation; ifTrue says whether the finalizer is present when the
// condition holds.
func containsCheck(cond ssa.Value) (obj ssa.Value, ifTrue bool) {
	switch x := cond.(type) {
	case *ssa.UnOp:
		if x.Op == token.NOT {
			obj, ifTrue = containsCheck(x.X)
			return obj, !ifTrue
		}
	case *ssa.Call:
		if fn := ssax.Callee(&x.Call); kube.IsFunc(fn, kube.ControllerUtilPkg, "ContainsFinalizer") && len(x.Call.Args) == 2 {
			return kubessa.MetaObject(x.Call.Args[0]), true
		}
	}
	return nil, false
}
