package finalizer

import (
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

// cleanupVerbs are the words that name a call as cleanup. A cleanup call is
// one whose only result is an error: lookups and client builders return a
// value too (Get, List, a cloud client's constructor), and a call that
// names no cleanup (a status update, a metric) is not what the finalizer
// waits for.
var cleanupVerbs = []string{
	"delete", "clean", "remove", "release", "destroy", "teardown", "deregister", "unregister",
	"detach", "purge", "terminate", "revoke", "uninstall", "deprovision", "finaliz", "unbind",
	"disconnect", "dispose",
}

// cleanupCall reports whether the call is a cleanup whose error the
// finalizer should wait for, and returns its name for messages.
func cleanupCall(call *ssa.Call, obj ssa.Value) (string, bool) {
	sig := call.Call.Signature()
	if sig.Results().Len() != 1 || !isError(sig.Results().At(0).Type()) {
		return "", false // no error, or a value besides it: a lookup, a constructor
	}
	fn := ssax.Callee(&call.Call)
	if fn == nil || fn.Pkg() == nil {
		return "", false // a func value: what it does is unknown
	}
	path := fn.Pkg().Path()
	if path == kube.ControllerUtilPkg {
		return "", false // owner references and finalizers, not cleanup
	}
	if !strings.Contains(strings.Split(path, "/")[0], ".") {
		return "", false // the standard library: a temporary file, not what the finalizer guards
	}
	name := strings.ToLower(fn.Name())
	if strings.Contains(name, "finalizer") || strings.Contains(name, "status") {
		return "", false // the removal itself (r.removeFinalizer(obj)), or a report of progress
	}
	if _, ok := writeOf(&call.Call, obj); ok {
		return "", false // the write of the object itself
	}
	if path == kube.CRClientPkg || kube.IsTypedResourceClient(recvType(&call.Call)) {
		for _, a := range call.Call.Args {
			if kubessa.MetaObject(a) == obj {
				return "", false // deleting the object again: its deletion is under way already
			}
		}
	}
	for _, v := range cleanupVerbs {
		if strings.Contains(name, v) {
			return fn.Name(), true
		}
	}
	return "", false
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// ignoredUntil reports whether the removal is reached from the cleanup
// call on a path where the call's error is ignored: not used at all, or
// only logged, recorded as an event, formatted or wrapped into an error
// that is itself ignored; where the error is compared with nil, only the
// branch where it is not nil is followed. Any other use (returning it,
// classifying it with apierrors.IsNotFound, storing or collecting it)
// ends the path: the code decides something with it.
func ignoredUntil(c *ssa.Call, removal ssa.Instruction) bool {
	errs := map[ssa.Value]bool{c: true}
	seen := make(map[*ssa.BasicBlock]bool)
	type start struct {
		b *ssa.BasicBlock
		i int
	}
	var work []start
	for i, instr := range c.Block().Instrs {
		if instr == c {
			work = append(work, start{c.Block(), i + 1})
			break
		}
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		next, ok := scan(s.b, s.i, c, removal, errs)
		if ok {
			return true
		}
		for _, b := range next {
			if !seen[b] {
				seen[b] = true
				work = append(work, start{b, 0})
			}
		}
	}
	return false
}

// scan walks one block from instruction i and returns the successors the
// path goes on to, or found when it reaches the removal.
func scan(b *ssa.BasicBlock, from int, c *ssa.Call, removal ssa.Instruction, errs map[ssa.Value]bool) (next []*ssa.BasicBlock, found bool) {
	for _, instr := range b.Instrs[from:] {
		if instr == removal {
			return nil, true
		}
		if instr == ssa.Instruction(c) {
			return nil, false // the next iteration: a new error
		}
		if call, ok := instr.(ssa.CallInstruction); ok && rereads(call.Common()) {
			return nil, false // the state is read again: the removal may wait on it, not on the error
		}
		var ops []*ssa.Value
		for _, op := range instr.Operands(ops[:0]) {
			if op == nil || *op == nil || !errs[*op] {
				continue
			}
			if !neutral(instr, *op, errs) {
				return nil, false // the error is acted on
			}
		}
	}
	switch last := b.Instrs[len(b.Instrs)-1].(type) {
	case *ssa.If:
		if cmp, ok := last.Cond.(*ssa.BinOp); ok && (cmp.Op == token.EQL || cmp.Op == token.NEQ) &&
			(errs[cmp.X] && isNil(cmp.Y) || errs[cmp.Y] && isNil(cmp.X)) {
			if cmp.Op == token.NEQ {
				return b.Succs[:1], false // err != nil: the failure branch
			}
			return b.Succs[1:], false
		}
	}
	return b.Succs, false
}

// neutral reports whether an instruction's use of an error leaves it
// ignored, adding to errs the values that carry it on (conversions, phis,
// wrappers).
func neutral(instr ssa.Instruction, op ssa.Value, errs map[ssa.Value]bool) bool {
	if v, ok := instr.(ssa.Value); ok && slices.Contains(flow.Preds(v, flow.Phis|flow.Conversions), op) {
		errs[v] = true // the same error, converted or merged
		return true
	}
	switch x := instr.(type) {
	case *ssa.DebugRef:
		return true
	case *ssa.BinOp:
		return (x.Op == token.EQL || x.Op == token.NEQ) && (isNil(x.X) || isNil(x.Y))
	case *ssa.Store:
		// An argument of a variadic call: ...any handed to a logger.
		ia, ok := x.Addr.(*ssa.IndexAddr)
		if !ok || x.Val != op {
			return false
		}
		arr, ok := ia.X.(*ssa.Alloc)
		return ok && onlyLogged(arr, errs)
	case *ssa.Call:
		switch messageCall(&x.Call) {
		case logs:
			return true
		case wraps:
			errs[x] = true
			return true
		}
	}
	return false
}

// onlyLogged reports whether a variadic argument array is handed only to
// logging calls, or to wrappers (fmt.Errorf("...: %w", err)) whose
// results it adds to errs.
func onlyLogged(arr *ssa.Alloc, errs map[ssa.Value]bool) bool {
	for _, ref := range *arr.Referrers() {
		switch r := ref.(type) {
		case *ssa.IndexAddr, *ssa.DebugRef:
		case *ssa.Slice:
			for _, use := range *r.Referrers() {
				call, ok := use.(*ssa.Call)
				if !ok {
					return false
				}
				switch messageCall(&call.Call) {
				case logs:
				case wraps:
					errs[call] = true
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

type message int

const (
	other message = iota
	logs          // writes the error somewhere for people: a log, an event, a string
	wraps         // returns an error made from it
)

// messageCall says whether a call only writes an error out (a logger or an
// event recorder: kube.IsLogPkg; utilruntime.HandleError, fmt's printing
// and formatting, err.Error()) or wraps it into another error (fmt.Errorf,
// pkg/errors' Wrap, controller-runtime's client.IgnoreNotFound).
func messageCall(common *ssa.CallCommon) message {
	fn := ssax.Callee(common)
	if fn == nil || fn.Pkg() == nil {
		if fn != nil && fn.Name() == "Error" {
			return logs // err.Error()
		}
		return other
	}
	path, name := fn.Pkg().Path(), fn.Name()
	switch {
	case kube.IsLogPkg(path):
		return logs
	case path == "fmt" && name == "Errorf":
		return wraps
	case path == "fmt":
		return logs
	case path == kube.UtilRuntimePkg && strings.HasPrefix(name, "HandleError"):
		return logs
	case path == kube.PkgErrorsPkg && (strings.HasPrefix(name, "Wrap") || strings.HasPrefix(name, "With")):
		return wraps
	case path == kube.CRClientPkg && name == "IgnoreNotFound":
		return wraps
	}
	if recv := fn.Signature().Recv(); recv != nil {
		if _, rn := kube.PathName(recv.Type()); strings.HasSuffix(rn, "EventRecorder") || strings.HasSuffix(rn, "Logger") {
			return logs
		}
	}
	return other
}

// recvType is the static type of a method call's receiver, or nil.
func recvType(common *ssa.CallCommon) types.Type {
	if common.IsInvoke() {
		return common.Value.Type()
	}
	if len(common.Args) > 0 {
		if fn := ssax.Callee(common); fn != nil && fn.Signature().Recv() != nil {
			return common.Args[0].Type()
		}
	}
	return nil
}

// rereads reports whether a call reads API state (a client's or lister's
// Get or List): after a cleanup whose error was dropped, a controller that
// lists the children it deleted and requeues while any is left waits for
// the cleanup itself, not for its error.
func rereads(common *ssa.CallCommon) bool {
	fn := ssax.Callee(common)
	if fn == nil || fn.Signature().Recv() == nil {
		return false
	}
	switch fn.Name() {
	case "Get", "List":
	default:
		return false
	}
	t := recvType(common)
	return kube.IsCRReader(t) || kube.IsTypedResourceClient(t) || kube.IsLister(t) || kube.IsDynamicResourceClient(t)
}
