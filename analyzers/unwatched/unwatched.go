package unwatched

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
)

const name = "unwatched"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "ChildNotWatched",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer},
	Run:       run,
})

// Analyzer reports children a controller creates but never watches, and
// builder-wide event filters that hide the status changes of watched
// children the reconciler reads.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.CRBuilderPkg) == nil || summary.Library(pass) {
		return nil, nil // no controller-runtime builder in sight
	}
	s := kubessa.Of(pass)
	if s == nil {
		return nil, nil
	}
	var funcs []*ssa.Function
	for _, fn := range s.SrcFuncs {
		if !ssax.InTest(fn) && !isTestFile(pass, fn) {
			funcs = append(funcs, fn)
		}
	}
	var ctrls []*kubessa.Controller
	for _, c := range kubessa.Controllers(funcs) {
		if len(c.Done) > 0 {
			ctrls = append(ctrls, c) // a chain that builds a controller here
		}
	}
	if len(ctrls) == 0 {
		return nil, nil
	}
	checked := make(map[*ssa.Function]bool, len(s.Checked))
	for _, fn := range s.Checked {
		checked[fn] = true
	}
	p := &pkg{pass: pass, ctrls: ctrls, funcs: funcs, checked: checked}
	p.children()
	p.filters()
	return nil, nil
}

// pkg is one package's controllers and code.
type pkg struct {
	pass    *analysis.Pass
	ctrls   []*kubessa.Controller // the chains that end in Complete or Build
	funcs   []*ssa.Function       // not test code
	checked map[*ssa.Function]bool
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

// kindName is how a message about code at pos names an object type.
func (p *pkg) kindName(t types.Type, pos token.Pos) string { return edit.TypeName(p.pass, pos, t) }
