// Package eventpath finds the code of a package that a controller runs once
// per event rather than once at start-up: the processing path (workers that
// take keys from a work queue, controller-runtime Reconcile methods), event
// handlers (the functions stored in client-go's handler structs), periodic
// passes (functions handed to wait.Until and its kin) and knative
// reconcilers, and what each reaches in the package.
//
// Several analyzers judge a call by the path it is on: an uncached read, a
// client built, an API call made there runs as often as events arrive. They
// share one notion of that path, so a controller shape learnt for one (a
// func-typed field holding the sync handler, a closure handed to wait.Poll)
// is learnt for all.
package eventpath

import (
	"go/types"
	"reflect"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// Analyzer computes a package's Paths once for every analyzer that judges
// calls by the path they are on (listerbypass, handlerblocking,
// clientperreconcile). Its result is a *Paths, nil where kubessa built no
// SSA.
var Analyzer = &analysis.Analyzer{
	Name:       "ctrllintpaths",
	Doc:        "find the per-event paths of a package's SSA form once for ctrllint's analyzers",
	Run:        run,
	Requires:   []*analysis.Analyzer{kubessa.Analyzer, keyflow.Analyzer},
	ResultType: reflect.TypeFor[*Paths](),
}

// Of returns pass's *Paths, nil when the package has no SSA form.
func Of(pass *analysis.Pass) *Paths {
	p, _ := pass.ResultOf[Analyzer].(*Paths)
	return p
}

func run(pass *analysis.Pass) (any, error) {
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return (*Paths)(nil), nil
	}
	return New(ssaRes.Pkg, ssaRes.SrcFuncs, keyflow.Of(pass)), nil
}

// Paths answers path questions about one package's source functions.
//
// The analyzers of a package run concurrently and share it. What does not
// depend on a query (the roots, the handlers, the functions stored in
// fields) is found once, on first use, so that a package whose analyzers
// all bail out early pays nothing, and is read only after. Each analyzer
// leaves different calls off its path (a stop: see Reach), so what a walk
// reaches is computed per query and not kept.
type Paths struct {
	pkg   *ssa.Package
	funcs []*ssa.Function
	keys  *keyflow.Package

	once sync.Once
	// fieldFuncs are the functions stored in each func-typed struct field
	// of the package, so a call through c.syncHandler reaches them.
	fieldFuncs map[*types.Var][]ssa.Value
	handlers   []Handler
	processing []Root // processingRoots
	event      []Root // eventRoots
}

// A Stop reports callees whose function arguments a walk does not follow:
// listerbypass stops at retry.RetryOnConflict (a fresh read is what its
// closure is for), clientperreconcile at sync.Once's Do (its function runs
// once, not per event). A nil Stop follows every function argument.
type Stop func(*types.Func) bool

// New returns the paths of pkg's source functions funcs, whose work-queue
// Gets keys holds (keyflow.Analyzer's result): for a caller without the
// analyzer's pass.
func New(pkg *ssa.Package, funcs []*ssa.Function, keys *keyflow.Package) *Paths {
	return &Paths{pkg: pkg, funcs: funcs, keys: keys}
}

// init finds, once, what every query reads.
func (p *Paths) init() {
	p.once.Do(func() {
		p.fieldFuncs = ssax.StoredFuncs(p.funcs)
		p.handlers = p.findHandlers()
		p.processing = p.processingRoots()
		p.event = p.eventRoots()
	})
}

// FieldFuncs are the functions stored in each func-typed struct field of the
// package. Callers must not modify them.
func (p *Paths) FieldFuncs() map[*types.Var][]ssa.Value {
	p.init()
	return p.fieldFuncs
}

// Processing returns the functions on a controller's processing path: those
// that take keys from a work queue (the worker loop), controller-runtime
// Reconcile methods, and everything they reach in the package. It also says
// which controllers reach each function: the named receiver types of the
// roots whose path it is on (the nil key for a root without one), so that a
// call can be measured against its own controller, not another one in the
// same package. The walk does not follow what stop names (see Reach).
func (p *Paths) Processing(stop Stop) map[*ssa.Function]Owners {
	p.init()
	roots := make(map[*types.TypeName][]*ssa.Function)
	for _, r := range p.processing {
		roots[OwnerOf(r.Fn)] = append(roots[OwnerOf(r.Fn)], r.Fn)
	}
	reached := make(map[*ssa.Function]Owners)
	for owner, fns := range roots {
		for fn := range p.Reach(fns, stop) {
			if reached[fn] == nil {
				reached[fn] = make(Owners)
			}
			reached[fn][owner] = true
		}
	}
	return reached
}

// PerEvent returns the functions that run once per event or per period:
// the processing path onPath (Processing's result), and what event
// handlers, periodic passes and knative reconcilers reach, stop left out
// (see Reach).
func (p *Paths) PerEvent(onPath map[*ssa.Function]Owners, stop Stop) map[*ssa.Function]bool {
	p.init()
	var roots []*ssa.Function
	for fn := range onPath {
		roots = append(roots, fn)
	}
	for _, r := range p.event {
		roots = append(roots, r.Fn)
	}
	return p.Reach(roots, stop)
}

// A Handler is a function of the package stored in a field of one of
// client-go's event-handler structs.
type Handler struct {
	Fn    *ssa.Function
	Field string // AddFunc, UpdateFunc, DeleteFunc or FilterFunc
	Store *ssa.Store
}

// Handlers returns the package's functions stored in client-go's
// event-handler structs (ResourceEventHandlerFuncs, the detailed and
// filtering kinds), set in a composite literal or later, in the order of
// the stores.
func (p *Paths) Handlers() []Handler {
	p.init()
	return slices.Clone(p.handlers)
}

func (p *Paths) findHandlers() []Handler {
	var out []Handler
	for _, fn := range p.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if _, ok := kube.HandlerStructOf(fa.X.Type()); !ok {
					continue
				}
				field := ssax.FieldOfAddr(fa)
				if _, ok := kube.HandlerFieldEvent(field.Name()); !ok {
					continue // a filtering handler's Handler: not a function
				}
				if h := p.local(st.Val); h != nil {
					out = append(out, Handler{Fn: h, Field: field.Name(), Store: st})
				}
			}
		}
	}
	return out
}

// Reach returns roots and the package functions they reach: directly,
// through method values and closures, through func-typed struct fields
// (sample-controller's c.syncHandler), and through functions handed to
// other code (wait.Poll*), except to the callees stop names.
func (p *Paths) Reach(roots []*ssa.Function, stop Stop) map[*ssa.Function]bool {
	p.init()
	reached := make(map[*ssa.Function]bool)
	p.walk(roots, stop, func(fn, _ *ssa.Function) bool {
		if reached[fn] {
			return false
		}
		reached[fn] = true
		return true
	})
	return reached
}

// walk visits roots and the package functions they reach, breadth first,
// along the edges Reach describes: visit is told each function with the
// one it was reached from (nil for a root) and says whether to go on from
// it. The caller has called init.
func (p *Paths) walk(roots []*ssa.Function, stop Stop, visit func(fn, from *ssa.Function) bool) {
	var work []*ssa.Function
	add := func(fn, from *ssa.Function) {
		if fn != nil && fn.Pkg == p.pkg && fn.Blocks != nil && visit(fn, from) {
			work = append(work, fn)
		}
	}
	for _, fn := range roots {
		add(fn, nil)
	}
	for len(work) > 0 {
		fn := work[0]
		work = work[1:]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				common := call.Common()
				add(p.local(common.Value), fn)
				if f := ssax.LoadedField(common.Value); f != nil {
					for _, target := range p.fieldFuncs[f] {
						add(p.local(target), fn)
					}
				}
				if stop != nil && stop(ssax.Callee(common)) {
					continue
				}
				for _, arg := range common.Args {
					add(p.local(arg), fn)
				}
			}
		}
	}
}

// local is the package function a function value runs, or nil.
func (p *Paths) local(v ssa.Value) *ssa.Function {
	fn, _ := ssax.Func(p.pkg, v)
	return fn
}
