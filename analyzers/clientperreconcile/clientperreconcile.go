package clientperreconcile

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/eventpath"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "clientperreconcile"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "ClientBuiltPerEvent",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer, eventpath.Analyzer},
	Run:       run,
})

// Analyzer reports clients, informer factories and caches built from the
// controller's own config on a path that runs once per event.
var Analyzer = Definition.Analyzer

// maxDepth bounds how far a config is followed back through parameters
// and helpers, and a client forward through returns.
const maxDepth = 4

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.RestPkg) == nil {
		return nil, nil // no client can be built without client-go's rest
	}
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	paths := eventpath.Of(pass)
	var roots []eventpath.Root
	c := &checker{pass: pass, owners: make(map[*types.TypeName]bool), callers: callSites(ssaRes.SrcFuncs)}
	for _, r := range paths.Roots() {
		if inTest(pass, r.Fn) {
			continue // a test's reconciler builds clients of the test's env
		}
		roots = append(roots, r)
		if o := eventpath.OwnerOf(r.Fn); o != nil {
			c.owners[o] = true
		}
	}
	if len(roots) == 0 {
		return nil, nil // no controller in the package
	}
	// Functions handed to sync.Once and its kin run once, not per event:
	// the path does not enter them.
	w := paths.Witness(roots, runsOnce)
	c.onPath = func(fn *ssa.Function) bool {
		_, _, ok := w.Path(fn)
		return ok
	}
	for _, fn := range ssaRes.Checked {
		root, chain, ok := w.Path(fn)
		if !ok {
			continue // set-up code: built once
		}
		if inTest(pass, fn) {
			continue // test code builds clients of its fake or envtest cluster
		}
		c.check(fn, root, chain)
	}
	return nil, nil
}

// runsOnce reports the functions that run what they are handed at most
// once: sync.Once's Do, sync.OnceFunc, OnceValue and OnceValues.
func runsOnce(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	switch fn.Name() {
	case "OnceFunc", "OnceValue", "OnceValues":
		return true
	case "Do":
		recv := fn.Type().(*types.Signature).Recv()
		return recv != nil && kube.Is(recv.Type(), "sync", "Once")
	}
	return false
}

func inTest(pass *analysis.Pass, fn *ssa.Function) bool {
	return strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go") || ssax.InTest(fn)
}

type checker struct {
	pass *analysis.Pass
	// owners are the controller types whose methods start per-event
	// paths: a value of one of them is the controller, and its fields
	// are the controller's own.
	owners map[*types.TypeName]bool
	// callers are the static call sites of each package function.
	callers map[*ssa.Function][]ssa.CallInstruction
	// onPath reports whether a function is on the per-event path.
	onPath func(*ssa.Function) bool
}

// callSites indexes the static calls of funcs by callee.
func callSites(funcs []*ssa.Function) map[*ssa.Function][]ssa.CallInstruction {
	m := make(map[*ssa.Function][]ssa.CallInstruction)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if callee := call.Common().StaticCallee(); callee != nil && callee.Pkg == fn.Pkg {
					m[callee] = append(m[callee], call)
				}
			}
		}
	}
	return m
}

// check reports the builders fn calls from the controller's own config.
func (c *checker) check(fn *ssa.Function, root eventpath.Root, chain []*ssa.Function) {
	defer crash.At(c.pass.Fset, fn.Pos())
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			builder, built, ok := builderOf(&call.Call)
			if !ok || len(call.Call.Args) == 0 {
				continue // not a client builder
			}
			if !c.own(fn, call.Call.Args[0], 0, make(map[ssa.Value]bool)) {
				continue // a config of its own: another cluster, user or target
			}
			if c.kept(fn, call, 0) {
				continue // built once and kept: a lazily built client
			}
			c.pass.Report(analysis.Diagnostic{Pos: call.Pos(), Message: message(builder, built, root, chain)})
		}
	}
}

// builderOf returns the client builder a call runs, by name for messages,
// and what it builds. ctrl.NewManager is a variable holding manager.New.
func builderOf(common *ssa.CallCommon) (string, built, bool) {
	if common.IsInvoke() {
		return "", 0, false
	}
	if g := aliasVar(common.Value); g != nil && g.Name() == "NewManager" {
		return "ctrl.NewManager", builtCache, true
	}
	fn := ssax.Callee(common)
	built, ok := clientBuilder(fn)
	if !ok {
		return "", 0, false
	}
	return fn.Pkg().Name() + "." + fn.Name(), built, true
}

// aliasVar is the variable of controller-runtime's root package a
// function value was loaded from (ctrl.NewManager, ctrl.GetConfigOrDie),
// or nil.
func aliasVar(v ssa.Value) *ssa.Global {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	g, ok := load.X.(*ssa.Global)
	if !ok || g.Pkg == nil || g.Pkg.Pkg.Path() != kube.ControllerRtPkg {
		return nil
	}
	return g
}

// message names the builder, the path that reaches it and what each call
// costs.
func message(builder string, built built, root eventpath.Root, chain []*ssa.Function) string {
	names := make([]string, len(chain))
	for i, fn := range chain {
		names[i] = funcName(fn)
	}
	where := fmt.Sprintf("%s in %s", builder, strings.Join(names, " → "))
	each := root.Kind.Each()
	switch built {
	case builtInformers:
		return fmt.Sprintf("%s builds an informer factory on %s from the controller's own client: once started, its informers list their resources across the cluster again and open new watches each time; build the factory once at start-up and read through its listers", where, each)
	case builtCache:
		return fmt.Sprintf("%s builds a cache with its own client and informers on %s from the controller's own config: each one opens new connections and, once started, lists and watches the cluster again; use the manager's client and cache", where, each)
	}
	if strings.HasSuffix(builder, "AndClient") {
		// The HTTP client is handed in, perhaps shared: only the rate
		// limiter is new.
		return fmt.Sprintf("%s builds a new client on %s from the controller's own config: each one has its own rate limiter, so the controller's QPS limit no longer holds; build it once at start-up and keep it in the controller", where, each)
	}
	return fmt.Sprintf("%s builds a new client on %s from the controller's own config: each one opens its own connections and has its own rate limiter, so the controller's QPS limit no longer holds; build it once at start-up and keep it in the controller", where, each)
}

// funcName names a function for a message: "(*Reconciler).Reconcile", or
// a function literal by the function it is in.
func funcName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		pos := fn.Prog.Fset.Position(fn.Pos())
		return fmt.Sprintf("the function literal at line %d", pos.Line)
	}
	return fn.RelString(fn.Pkg.Pkg)
}
