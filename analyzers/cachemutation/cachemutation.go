package cachemutation

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	summaries "github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/crash"
	"github.com/ctrllint/ctrllint/internal/lend"
)

const name = "cachemutation"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "CachedObjectMutated",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer, lend.Analyzer, summaries.Analyzer},
	FactTypes: []analysis.Fact{new(returnsFact), new(paramsFact)},
	Run:       run,
})

// Analyzer reports writes to objects read from an informer cache before
// they are deep-copied.
var Analyzer = Definition.Analyzer

// checker is one package's run: the summaries of its functions, shared
// by the flows that call them.
type checker struct {
	pass  *analysis.Pass
	pkg   *ssa.Package
	funcs []*ssa.Function // the package's source functions
	// flows are the source-mode analyses of functions, nil while one runs.
	flows  map[*ssa.Function]*unit
	params map[paramKey]*summary
	// via records, for a call that writes through a package function,
	// the write it makes there.
	via map[ssa.Instruction]*written
	// imported are the facts of other packages' functions (facts.go),
	// ifaces the results of the package's interface methods.
	imported map[*types.Func]*calleeFacts
	ifaces   map[*types.Func]*returnsFact
	concrete *concrete // the types that may implement ifaces, made when first asked
	named    named     // where the package names its functions, made when first asked
	// reported are the diagnostics made, by position and message: two
	// paths of taint to one write (a helper of another package that
	// writes both what a slice shares and what it holds) are one finding.
	reported map[string]bool
}

type paramKey struct {
	fn    *ssa.Function
	param int
	b     bits
}

// A summary is what a package function does with a parameter that holds
// cached references: the first write through it, and which results return
// them.
type summary struct {
	write   *written
	results []taint
}

// written describes a write inside a called function, for the message.
type written struct {
	what string
	pos  token.Position
	at   string // where, for a write in another package (pos is unknown)
}

func run(pass *analysis.Pass) (any, error) {
	reads := kube.LookupPackage(pass.Pkg, kube.CachePkg) != nil
	exports := summaries.Exports(pass)
	if !reads && !exports {
		return nil, nil // no informer cache in sight, and no summaries to export
	}
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	// What the package says of itself is made with what the packages it
	// imports say, so that a cached object returned through a chain of
	// helpers across the module's packages stays cached (package summary).
	a := &checker{
		pass:     pass,
		pkg:      ssaRes.Pkg,
		reported: make(map[string]bool),
		funcs:    ssaRes.SrcFuncs,
		flows:    make(map[*ssa.Function]*unit),
		params:   make(map[paramKey]*summary),
		via:      make(map[ssa.Instruction]*written),
		imported: make(map[*types.Func]*calleeFacts),
		ifaces:   make(map[*types.Func]*returnsFact),
	}
	if exports {
		a.export(ssaRes.SrcFuncs)
	}
	if reads {
		// Only hand-written functions are checked: what a generated one
		// does with cached objects is analysed when a checked function
		// calls it (sourceFlow, paramSummary), and its own writes would
		// be dropped.
		for _, fn := range ssaRes.Checked {
			if fn.Parent() != nil {
				continue // analysed with the function that contains it
			}
			a.check(fn)
		}
	}
	return nil, nil
}

// check reports the writes to cached objects that fn (with its closures)
// makes.
func (a *checker) check(fn *ssa.Function) {
	defer crash.At(a.pass.Fset, fn.Pos())
	if ssax.InTest(fn) && !runsInformers(fn) || a.quietTestHelper(fn) {
		return // a test arranging the objects of stores no informer feeds
	}
	if f := a.sourceFlow(fn); f != nil {
		a.report(f)
	}
}

// sourceFlow analyses fn (with its closures) from the cache reads it
// makes; nil while that analysis is under way (recursion).
func (a *checker) sourceFlow(fn *ssa.Function) *unit {
	if f, ok := a.flows[fn]; ok {
		return f
	}
	a.flows[fn] = nil
	f := newUnit(a, fn, true).run()
	a.flows[fn] = f
	return f
}

// sourceSummary is which results of fn return cached objects it read.
func (a *checker) sourceSummary(fn *ssa.Function) []taint {
	if f := a.sourceFlow(fn); f != nil {
		return f.results
	}
	return nil
}

// paramSummary analyses fn with parameter i holding cached references (as
// b says); nil while that analysis is under way.
func (a *checker) paramSummary(fn *ssa.Function, i int, b bits) *summary {
	k := paramKey{fn, i, b}
	if s, ok := a.params[k]; ok {
		return s
	}
	a.params[k] = nil
	f := newUnit(a, fn, false)
	f.vals[fn.Params[i]] = taint{b: b, src: &source{desc: fn.Params[i].Name(), param: i}}
	f.run()
	s := &summary{results: f.results}
	if len(f.sinks) > 0 {
		first := slices.MinFunc(f.sinks, func(x, y sink) int { return cmp.Compare(x.pos, y.pos) })
		w := a.writeOf(first)
		s.write = &w
	}
	a.params[k] = s
	return s
}

// report emits one diagnostic per cache read whose objects are written,
// at the first write.
func (a *checker) report(f *unit) {
	bySource := make(map[*source][]sink)
	var order []*source
	for _, s := range f.sinks {
		if s.src == nil || s.src.call == nil || !s.pos.IsValid() {
			continue
		}
		if _, ok := bySource[s.src]; !ok {
			order = append(order, s.src)
		}
		bySource[s.src] = append(bySource[s.src], s)
	}
	for _, src := range order {
		sinks := bySource[src]
		slices.SortFunc(sinks, func(x, y sink) int { return cmp.Compare(x.pos, y.pos) })
		first := sinks[0]
		what := a.describe(first)
		if n := len(sinks) - 1; n == 1 {
			what += ", and 1 more write"
		} else if n > 1 {
			what += fmt.Sprintf(", and %d more writes", n)
		}
		d := analysis.Diagnostic{
			Pos: first.pos,
			Message: fmt.Sprintf("%s from %s is modified (%s) without DeepCopy: the write changes the informer cache shared by every controller",
				a.objectName(src), src.desc, what),
		}
		key := fmt.Sprintf("%d %s", d.Pos, d.Message)
		if a.reported[key] {
			continue
		}
		a.reported[key] = true
		if fix := a.fix(src); fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		a.pass.Report(d)
	}
}
