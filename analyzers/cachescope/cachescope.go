package cachescope

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/lend"
)

const name = "cachescope"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "ClusterWideCache",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer, lend.Analyzer, summary.Analyzer},
	FactTypes: []analysis.Fact{new(CacheFact)},
	Run:       run,
})

// Analyzer reports cached reads and cache options that make a manager's
// cache hold every Secret, ConfigMap or Pod of the cluster.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.CRClientPkg) == nil || summary.Library(pass) {
		return nil, nil // no controller-runtime client in sight
	}
	s := kubessa.Of(pass)
	if s == nil {
		return nil, nil
	}
	p := &pkg{pass: pass, checked: make(map[*ssa.Function]bool, len(s.Checked))}
	for _, fn := range s.SrcFuncs {
		if !ssax.InTest(fn) && !isTestFile(pass, fn) {
			p.funcs = append(p.funcs, fn)
		}
	}
	for _, fn := range s.Checked {
		p.checked[fn] = true
	}
	p.collect()
	facts := p.imported()
	if summary.Exports(pass) && pass.Pkg.Name() != "main" { // a command is imported by none
		p.export(facts)
	}
	p.emptyEntries()
	if call := p.newManager(); call != nil {
		p.report(call, facts)
	}
	return nil, nil
}

// pkg is one package's code and what it says of the manager's cache.
type pkg struct {
	pass    *analysis.Pass
	funcs   []*ssa.Function // not test code
	checked map[*ssa.Function]bool
	// callers are the static calls of each function of the package.
	callers map[*ssa.Function][]*ssa.Call
	// params memoises where the client a parameter holds comes from.
	params map[*ssa.Parameter]map[string]bool

	reads         []read          // cached reads of costly kinds
	watched       map[string]bool // object keys the package's watches keep typed informers of
	managerFields map[string]bool // field keys set from a manager's GetClient()
	unknownWatch  bool            // a watch of a kind not known here
	filtered      []filteredWatch // watches of costly kinds whose predicates select objects
	unfiltered    map[string]bool // object keys of costly kinds watched without such predicates
}

// A filteredWatch is a watch of a costly kind whose predicates select
// objects by labels, name or namespace.
type filteredWatch struct {
	call   *ssa.Call
	object types.Type
	by     selects
}

// A read is a Get or List of a costly kind in the package, through a
// client whose sources are known.
type read struct {
	call    *ssa.Call
	method  string
	object  types.Type
	sources map[string]bool // field keys; "" for a manager's GetClient()
}

func isTestFile(pass *analysis.Pass, fn *ssa.Function) bool {
	return strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go")
}

// calls yields every call of the package's code with the function it is
// in.
func (p *pkg) calls(yield func(*ssa.Function, *ssa.Call) bool) {
	for _, fn := range p.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(*ssa.Call); ok && !yield(fn, call) {
					return
				}
			}
		}
	}
}

// newManager returns the package's one call of manager.New
// (ctrl.NewManager), or nil when it has none or several (which manager a
// reconciler is given is then not known).
func (p *pkg) newManager() *ssa.Call {
	var found *ssa.Call
	for fn, call := range p.calls {
		path, fname := kubessa.AliasCallee(call.Common())
		if path != kube.CRManagerPkg || fname != "New" || len(call.Call.Args) != 2 || !p.checked[fn] {
			continue
		}
		if found != nil {
			return nil
		}
		found = call
	}
	return found
}

// kindName is how a message about code at pos names an object type.
func (p *pkg) kindName(t types.Type, pos token.Pos) string { return edit.TypeName(p.pass, pos, t) }
