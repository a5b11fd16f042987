package tombstone

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/crash"
	"github.com/ctrllint/ctrllint/internal/lend"
)

const name = "tombstone"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "DeleteHandlerMishandlesTombstone",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{inspect.Analyzer, kubessa.Analyzer, keyflow.Analyzer, lend.Analyzer, summary.Analyzer},
	Scopes:    []string{kube.CachePkg},
	FactTypes: []analysis.Fact{new(HelperFact), new(WatcherFact), new(WorkerFact)},
	Run:       run,
})

// Analyzer reports delete handlers that mishandle tombstones.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	exports := summary.Exports(pass)
	cachePkg := kube.LookupPackage(pass.Pkg, kube.CachePkg)
	if cachePkg == nil && !exports {
		return nil, nil // the package cannot see an informer, and exports nothing
	}

	funcs := make(map[ast.Node]*ssa.Function)
	for _, fn := range ssaRes.SrcFuncs {
		if syn := fn.Syntax(); syn != nil {
			funcs[syn] = fn
		}
	}
	newChecker := func(imports bool) *checker {
		return &checker{
			pass:     pass,
			pkg:      ssaRes.Pkg,
			funcs:    ssaRes.SrcFuncs,
			keys:     keyflow.Of(pass),
			prog:     ssaRes.Pkg.Prog,
			imports:  imports,
			reported: make(map[string]bool),
			done:     make(map[target]bool),
			summary:  make(map[target]summaryState),
			answers:  make(map[target]answerState),
			effects:  make(map[target]*effect),
			// The package's own deliveries make roots of its own
			// implementations; exported when the package exports.
			delivered: make(map[DeliveredParam]bool),
		}
	}
	check := func(c *checker) {
		for _, roots := range [][]root{
			findRoots(pass, ins, c.prog, funcs, cachePkg),
			// The implementations of the interface methods that watcher
			// packages (this one included) call with deleted objects.
			c.implementationRoots(c.deliveries()),
		} {
			for _, r := range roots {
				func() {
					defer crash.At(pass.Fset, r.fn.Pos())
					c.visit(target{r.fn, r.param, r.mode}, origin{root: r})
				}()
			}
		}
	}
	if exports {
		// What the package says of itself, made with what the packages it
		// imports say, so that helper chains across the module's packages
		// are summarised bottom up (package summary): a checker that
		// reports nothing.
		e := newChecker(true)
		e.silent = true
		// A helper package need not see an informer: `func PodFromObj(obj
		// interface{}) *v1.Pod` is all it takes.
		e.exportHelperFacts()
		if cachePkg != nil {
			check(e)
			e.exportWatcherFact()
		}
	}
	if cachePkg == nil {
		return nil, nil // the package cannot see an informer
	}
	c := newChecker(true)
	check(c)
	// DeletedObject[T].OptionalObj may be nil wherever it is read.
	for _, fn := range ssaRes.Checked {
		func() {
			defer crash.At(pass.Fset, fn.Pos())
			c.checkOptionalObj(fn)
		}()
	}
	return nil, nil
}

// A target is one function analysed with one parameter holding the deleted
// object.
type target struct {
	fn    *ssa.Function
	param int
	mode  mode
}

// origin says how a deleted object reached the function being checked, for
// the diagnostic message.
type origin struct {
	root root
	via  *ssa.Function // the function that passed it on, nil at the root
	// collect, if set, is the effect of a helper being summarised: findings
	// are recorded there rather than reported.
	collect *effect
}

type checker struct {
	pass *analysis.Pass
	pkg  *ssa.Package
	prog *ssa.Program
	// imports says whether the facts of other packages are read: not
	// while the package's own summaries are made.
	imports bool
	// silent checkers report nothing (they make the package's summaries).
	silent    bool
	reported  map[string]bool
	done      map[target]bool
	summary   map[target]summaryState // memoises summarize
	answers   map[target]answerState  // memoises tombstoneAnswer
	effects   map[target]*effect      // memoises effectOf
	delivered map[DeliveredParam]bool // interface methods called with deleted objects, when exporting
	// funcs are the package's source functions; keys holds the work-queue
	// Gets in them (found once per package, for every analyzer), gets
	// them and fieldFuncs the funcs stored in fields, taken when a drop is
	// checked for loss (missing.go).
	funcs      []*ssa.Function
	keys       *keyflow.Package
	gets       []*keyflow.Item
	fieldFuncs map[*types.Var][]ssa.Value // func-typed fields and what is stored in them
}

// visit checks one function that receives a deleted object, then the
// package functions it passes the object on to.
func (c *checker) visit(t target, o origin) {
	if c.done[t] || t.param >= len(t.fn.Params) {
		return
	}
	c.done[t] = true
	f := solve(t.fn, t.mode, []key{{t.fn.Params[t.param], -1}}, c.hooks())
	var calls func(instr ssa.Instruction, st state)
	if t.mode == mayBeTombstone {
		calls = func(instr ssa.Instruction, st state) {
			c.checkHelperCall(f, instr, st, o)
			c.noteDelivery(f, instr, st, o)
		}
	}
	f.walkCalls(calls, func(instr ssa.Instruction, st state) {
		switch t.mode {
		case mayBeTombstone:
			c.checkTombstoneUse(f, instr, st, o)
		case mayBeNil:
			c.checkNilUse(f, instr, st, o, nilFilter)
		}
		c.followCalls(f, instr, st, t.mode, o)
	})
}

// followCalls visits the package functions a tracked value is passed to.
func (c *checker) followCalls(f *flow, instr ssa.Instruction, st state, m mode, o origin) {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return
	}
	common := call.Common()
	callee, offset := c.localCallee(common)
	if callee == nil {
		return
	}
	for i, arg := range common.Args {
		if f.tracked(arg, st) {
			c.visit(target{callee, i + offset, m}, origin{root: o.root, via: f.fn})
		}
	}
}

// localCallee returns the function of this package a call statically
// invokes, and the offset from call arguments to its parameters (1 for a
// bound method value, whose receiver is not an argument).
func (c *checker) localCallee(common *ssa.CallCommon) (*ssa.Function, int) {
	if common.IsInvoke() {
		return nil, 0 // interface method: the implementation is unknown
	}
	return ssax.Func(c.pkg, common.Value) // nil for library code
}
