package conflictretry

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// staleRoot follows the object a write sends back to where the function
// got it: a variable captured from the enclosing function (a *ssa.FreeVar:
// a pointer variable loaded, or a struct variable taken by address), or a
// parameter, through DeepCopy, conversions and assertions. chain holds the
// values on the way, which the function may refresh too. Anything else
// (the result of a read, a new object) gives a nil root.
func staleRoot(v ssa.Value) (root ssa.Value, chain []ssa.Value) {
	for range 8 {
		for x := range flow.Chain(v, flow.Conversions|flow.Asserts) {
			chain = append(chain, x)
			v = x
		}
		switch x := v.(type) {
		case *ssa.UnOp:
			if fv, ok := x.X.(*ssa.FreeVar); ok && x.Op == token.MUL && isObjectPointer(x.Type()) {
				return fv, chain
			}
		case *ssa.FreeVar:
			if isObjectPointer(x.Type()) {
				return x, chain // &obj of a captured struct variable
			}
		case *ssa.Parameter:
			if isObjectPointer(x.Type()) || isObjectInterface(x.Type()) {
				return x, chain
			}
		case *ssa.Call:
			if recv, ok := kubessa.DeepCopyOf(x); ok {
				v = recv
				continue
			}
		}
		return nil, nil
	}
	return nil, nil
}

// isObjectPointer reports whether t is a pointer to an API object (a
// struct with ObjectMeta, or unstructured.Unstructured).
func isObjectPointer(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	if _, twice := types.Unalias(p.Elem()).(*types.Pointer); twice {
		return false // a captured pointer variable: its loads are the objects
	}
	return kube.IsObjectType(p.Elem()) || kube.Is(p.Elem(), kube.UnstructuredPkg, "Unstructured")
}

// isObjectInterface reports whether t is controller-runtime's
// client.Object or runtime.Object, which helpers take.
func isObjectInterface(t types.Type) bool {
	return kube.Is(t, kube.CRClientPkg, "Object") || kube.Is(t, "k8s.io/apimachinery/pkg/runtime", "Object")
}

// freeVarRefreshed reports whether the closure body may give a captured
// object variable a fresher object: it assigns the variable (the
// kubernetes idiom: `obj = updated.DeepCopy()` after a failed attempt), or
// hands the object it holds to code that may read into it or set its
// resourceVersion.
func (c *checker) freeVarRefreshed(body *ssa.Function, fv *ssa.FreeVar) bool {
	for _, ref := range *fv.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			return true // assigned inside the closure, or its address stored away
		case *ssa.UnOp:
			if c.refreshes(ref) {
				return true
			}
		case *ssa.DebugRef:
		default:
			// &obj of a struct variable: its uses are the object's.
			if isObjectPointer(fv.Type()) {
				continue
			}
			return true // the variable's address handed on
		}
	}
	if isObjectPointer(fv.Type()) && c.refreshes(fv) {
		return true
	}
	return false
}

// anyRefreshed reports whether the function may refresh any value of a
// chain (a DeepCopy of the captured object read into before the write).
func (c *checker) anyRefreshed(chain []ssa.Value) bool {
	for _, v := range chain {
		if _, ok := v.(*ssa.FreeVar); ok {
			continue // its referrers are checked by freeVarRefreshed
		}
		if c.refreshes(v) {
			return true
		}
	}
	return false
}

// refreshes reports whether an object pointer may be read into or have its
// resourceVersion changed where it is used, as it is or converted: handed
// to a Get, to a function not known to leave the resourceVersion alone,
// stored away, or its metadata assigned. Uses that only read it, change
// its spec or status, log it or write it are safe.
func (c *checker) refreshes(p ssa.Value) bool {
	return !flow.Uses(p, flow.Conversions|flow.Asserts, func(use ssa.Instruction, of ssa.Value) bool {
		return !c.useRefreshes(use, of)
	})
}

// useRefreshes reports whether one use of the object p may refresh it.
func (c *checker) useRefreshes(use ssa.Instruction, p ssa.Value) bool {
	switch use := use.(type) {
	case *ssa.DebugRef, *ssa.BinOp, *ssa.If, *ssa.Return, *ssa.Field:
	case *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface:
		// The same object, whose uses flow.Uses visits.
	case *ssa.TypeAssert:
		// obj, ok := p.(T): the object goes on through an Extract, which
		// is not followed.
		return use.CommaOk
	case *ssa.UnOp:
		// *obj: a copy of the object, unless it is a pointer load of
		// a captured variable, which the caller follows.
	case *ssa.FieldAddr:
		return c.metaTouched(use)
	case *ssa.Store:
		if use.Addr == p {
			return true // *obj = *fresh
		}
		return !c.safeVararg(use) // kept somewhere: unknown
	case ssa.CallInstruction:
		return c.callRefreshes(use, p)
	default:
		return true // a phi, a map, a channel: unknown
	}
	return false
}

// metaTouched reports whether the field an address points to holds the
// resourceVersion (ObjectMeta, its ResourceVersion, an unstructured
// object's map) and is assigned or handed on. Other fields (Spec, Status)
// are what the closure is meant to change.
func (c *checker) metaTouched(fa *ssa.FieldAddr) bool {
	f := ssax.FieldOfAddr(fa)
	if f == nil {
		return true
	}
	switch f.Name() {
	case "ObjectMeta", "ResourceVersion":
	case "Object":
		if !kube.Is(fa.X.Type(), kube.UnstructuredPkg, "Unstructured") {
			return false
		}
		return c.unstructuredMapTouched(fa)
	default:
		return false
	}
	for _, ref := range *fa.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.FieldAddr:
			if c.metaTouched(ref) {
				return true
			}
		case ssa.CallInstruction:
			// A promoted ObjectMeta method: GetName, SetLabels, ...
			fn, _, _ := ssax.MethodCall(ref.Common())
			if fn == nil || ssax.Receiver(ref.Common()) != fa || !safeMethod(fn.Name()) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// unstructuredMapTouched reports whether an unstructured object's map may
// have its metadata changed: assigned, or handed to anything but
// unstructured's getters and setters of other fields.
func (c *checker) unstructuredMapTouched(fa *ssa.FieldAddr) bool {
	for _, ref := range *fa.Referrers() {
		load, ok := ref.(*ssa.UnOp)
		if !ok {
			if _, ok := ref.(*ssa.DebugRef); ok {
				continue
			}
			return true
		}
		for _, r := range *load.Referrers() {
			switch r := r.(type) {
			case *ssa.Lookup, *ssa.DebugRef:
			case *ssa.MapUpdate:
				if k, ok := r.Key.(*ssa.Const); !ok || k.Value == nil || constant.StringVal(k.Value) == "metadata" {
					return true
				}
			case ssa.CallInstruction:
				fn := ssax.Callee(r.Common())
				if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kube.UnstructuredPkg {
					return true
				}
				if strings.HasPrefix(fn.Name(), "Nested") {
					continue // a getter
				}
				if !strings.HasPrefix(fn.Name(), "SetNested") && fn.Name() != "RemoveNestedField" {
					return true
				}
				fields, _ := flow.Variadic(r.Common().Args[len(r.Common().Args)-1])
				if len(fields) == 0 {
					return true
				}
				if k, ok := fields[0].(*ssa.Const); !ok || k.Value == nil || constant.StringVal(k.Value) == "metadata" {
					return true
				}
			default:
				return true
			}
		}
	}
	return false
}

// safeVararg reports whether a store of the object puts it in the array
// of a variadic call that only logs or formats it.
func (c *checker) safeVararg(st *ssa.Store) bool {
	calls, only := varargCalls(st)
	return only && !slices.ContainsFunc(calls, func(call ssa.CallInstruction) bool { return !loggingCall(call) })
}

// callRefreshes reports whether a call that is handed the object p may
// read into it or change its resourceVersion.
func (c *checker) callRefreshes(call ssa.CallInstruction, p ssa.Value) bool {
	common := call.Common()
	if cl, ok := call.(*ssa.Call); ok {
		if _, ok := clientWrite(cl); ok {
			return false // a failed write leaves the object as it was
		}
	}
	fn, recv, _ := ssax.MethodCall(common)
	if fn != nil && ssax.Receiver(common) == p {
		if safeMethod(fn.Name()) && !kube.IsCRReader(recv) {
			return false // a method of the object (or of a client, for its name)
		}
		return true
	}
	callee := ssax.Callee(common)
	if callee == nil {
		return true // a func value: unknown
	}
	if loggingCall(call) || safeFunc(callee) {
		return false
	}
	if fn := common.StaticCallee(); fn != nil && fn.Pkg == c.pkg && fn.Blocks != nil {
		for i, a := range common.Args {
			if a == p && c.paramRefreshed(fn, i) {
				return true
			}
		}
		return false
	}
	return true // a Get into it, or unknown code
}

// safeMethod reports whether a method of an object, named so, leaves its
// resourceVersion alone: getters, copies, and setters of other metadata.
func safeMethod(name string) bool {
	switch name {
	case "SetResourceVersion", "SetUnstructuredContent", "UnmarshalJSON", "Unmarshal":
		return false
	case "DeepCopy", "DeepCopyObject", "DeepCopyInto", "String", "GetObjectKind", "GroupVersionKind", "MarshalJSON":
		return true
	}
	return strings.HasPrefix(name, "Get") || strings.HasPrefix(name, "Set")
}

// loggingCall reports whether a call only formats or logs what it is given:
// a function or method of a logging or event package (kube.IsLogPkg: klog,
// logr, log, slog, zap, logrus, event recorders), of an error-building one
// (kube.IsErrorPkg: fmt, errors, pkg/errors), or of apimachinery's
// util/runtime (HandleError).
func loggingCall(call ssa.CallInstruction) bool {
	fn := ssax.Callee(call.Common())
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	return kube.IsLogPkg(path) || kube.IsErrorPkg(path) || path == kube.UtilRuntimePkg
}

// safeFunc reports whether a library function handed an object leaves its
// resourceVersion alone: a reader, or a setter of kube's table of another
// metadata field (controllerutil.AddFinalizer, SetControllerReference,
// metav1.SetMetaDataLabel, ...).
func safeFunc(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	if s, ok := kube.SetterOf(fn); ok && fn.Signature().Recv() == nil {
		return s.Meta() && s.Field != kube.FieldResourceVersion
	}
	switch fn.Pkg().Path() {
	case "reflect":
		return fn.Name() == "DeepEqual"
	case "k8s.io/apimachinery/pkg/conversion": // equality.Semantic.DeepEqual
		return strings.HasPrefix(fn.Name(), "DeepEqual")
	case kube.CRClientPkg:
		switch fn.Name() {
		case "ObjectKeyFromObject", "MergeFrom", "MergeFromWithOptions", "StrategicMergeFrom":
			return true
		}
	case kube.ControllerUtilPkg:
		switch fn.Name() {
		case "ContainsFinalizer", "HasControllerReference", "HasOwnerReference":
			return true
		}
	case kube.MetaV1Pkg:
		switch fn.Name() {
		case "HasAnnotation", "HasLabel", "IsControlledBy", "GetControllerOf", "GetControllerOfNoCopy":
			return true
		}
	}
	return false
}

type paramKey struct {
	fn *ssa.Function
	i  int
}

// paramRefreshed reports whether a function of the package may refresh
// or change the resourceVersion of its parameter i (memoised; a call back
// into a function being summarised is taken to refresh).
func (c *checker) paramRefreshed(fn *ssa.Function, i int) bool {
	k := paramKey{fn, i}
	if r, ok := c.paramRefresh[k]; ok {
		return r
	}
	c.paramRefresh[k] = true
	if i >= len(fn.Params) {
		return true
	}
	r := c.refreshes(fn.Params[i])
	c.paramRefresh[k] = r
	return r
}
