package cachesync

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "cachesync"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "CacheReadBeforeSync",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer},
	Run:       run,
})

// Analyzer reports workers started before the informer caches they read
// have synced, and informers requested from a factory after its Start.
var Analyzer = Definition.Analyzer

// checker holds the memoised answers for one package.
type checker struct {
	pass  *analysis.Pass
	pkg   *ssa.Package
	funcs []*ssa.Function // the package's functions outside _test.go files

	guards        map[*ssa.Function]*guard
	checkedGuards map[*ssa.Function]*guard
	acts          map[*ssa.Function]act // absenceAct's answers, a zero act for none
	starts        map[*ssa.Function][]start
	reads         map[*ssa.Function]bool
	fieldFuncs    map[*types.Var][]*ssa.Function
	ownStores     map[*types.Var]bool
}

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.CachePkg) == nil {
		return nil, nil // no informers in sight
	}
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	c := &checker{
		pass:          pass,
		pkg:           ssaRes.Pkg,
		guards:        make(map[*ssa.Function]*guard),
		checkedGuards: make(map[*ssa.Function]*guard),
		acts:          make(map[*ssa.Function]act),
		starts:        make(map[*ssa.Function][]start),
		reads:         make(map[*ssa.Function]bool),
		fieldFuncs:    make(map[*types.Var][]*ssa.Function),
		ownStores:     make(map[*types.Var]bool),
	}
	for _, fn := range ssaRes.SrcFuncs {
		if !c.inTest(fn) {
			c.funcs = append(c.funcs, fn)
		}
	}
	c.scanFields()
	referenced := c.referenced()
	api := c.waitAPIs(referenced)
	owners := c.syncOwners()
	if kube.LookupPackage(pass.Pkg, kube.WorkqueuePkg) != nil {
		c.checkWorkers(referenced, api, owners)
	}
	c.checkActs(referenced, api, owners)
	c.checkWaitBeforeStart()
	c.checkFactories()
	c.checkPartialWaits()
	return nil, nil
}

// checkWorkers reports, in each function that nothing in the package
// calls (Run, main), the worker starts that can run before the caches are
// synced. A helper's starts are reported where the helper is called, so
// that a Run that waits before calling startWorkers is not blamed.
func (c *checker) checkWorkers(referenced map[*ssa.Function]bool, api map[*types.TypeName]bool, owners owners) {
	for _, fn := range c.funcs {
		if referenced[fn] {
			continue
		}
		c.checkRoot(fn, api, owners)
	}
}

// checkRoot reports the worker starts of one root that can run before
// the caches are synced.
func (c *checker) checkRoot(fn *ssa.Function, api map[*types.TypeName]bool, owners owners) {
	defer crash.At(c.pass.Fset, fn.Pos())
	waits := c.guardOf(fn).waits
	if !waits && (api[recvNamed(fn)] || !owners.owns(fn)) {
		return // the caller is to wait first
	}
	seen := make(map[ssa.Instruction]bool)
	for _, s := range c.startsOf(fn) {
		if seen[s.at] {
			continue
		}
		seen[s.at] = true
		c.pass.Report(analysis.Diagnostic{Pos: s.at.Pos(), Message: c.message(s, waits)})
	}
}

// message says which worker starts, where, and what to do.
func (c *checker) message(s start, waits bool) string {
	worker := "worker " + label(s.worker)
	if s.worker.Parent() != nil {
		worker = "the worker loop around " + label(s.getter)
	}
	what := worker + " starts"
	if s.at != s.launch {
		if by := c.startedBy(s.at); by != nil && by.Parent() == nil {
			what = fmt.Sprintf("%s starts %s (line %d)", typeLabel(by), worker, c.line(s.launch))
		} else {
			what = fmt.Sprintf("%s (line %d) starts", worker, c.line(s.launch))
		}
	}
	when := "before the informer caches it reads have synced"
	if waits {
		when = "on a path that skips the cache-sync wait"
	}
	return fmt.Sprintf("%s %s: its listers are still filling, so objects that exist look deleted and it acts on partial state; wait for the caches (cache.WaitForNamedCacheSyncWithContext or the factory's WaitForCacheSync) first and return if that fails", what, when)
}

// startedBy is the package function an indirect start calls or launches.
func (c *checker) startedBy(at ssa.Instruction) *ssa.Function {
	if call, ok := at.(ssa.CallInstruction); ok {
		if t := c.launched(call); t != nil {
			return t
		}
		return c.plainCallee(at)
	}
	return nil
}

func (c *checker) line(instr ssa.Instruction) int {
	return c.pass.Fset.Position(instr.Pos()).Line
}

// referenced returns the package functions some other function of the
// package (outside tests) calls, launches or takes as a value.
func (c *checker) referenced() map[*ssa.Function]bool {
	refs := make(map[*ssa.Function]bool)
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var ops []*ssa.Value
				for _, op := range instr.Operands(ops) {
					if op == nil || *op == nil {
						continue
					}
					if target := c.local(*op); target != nil && target != fn {
						refs[target] = true
					}
				}
			}
		}
	}
	return refs
}
