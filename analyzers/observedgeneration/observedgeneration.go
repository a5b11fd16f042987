package observedgeneration

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "observedgeneration"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "ConditionWithoutObservedGeneration",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer},
	Run:       run,
})

// Analyzer reports metav1.Condition literals set on an object's status
// without ObservedGeneration, where the object is at hand.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.MetaV1Pkg) == nil {
		return nil, nil // no metav1.Condition in sight
	}
	lits := conditionLiterals(pass)
	if len(lits) == 0 {
		return nil, nil
	}
	res := kubessa.Of(pass)
	if res == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	c := &checker{
		pass:    pass,
		pkg:     res.Pkg,
		lits:    lits,
		summary: make(map[paramKey]summary),
	}
	c.stamps(res.SrcFuncs)
	if c.stampsAny {
		return nil, nil // the package stamps conditions it does not say whose
	}
	for _, fn := range res.Checked {
		c.function(fn)
	}
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	pkg  *ssa.Package
	// lits are the package's metav1.Condition literals in files written
	// by hand outside tests, by the position of their opening brace
	// (where SSA allocates a literal).
	lits map[token.Pos]*ast.CompositeLit
	// summary memoises where a function's condition-typed parameter ends:
	// in the status of an object, or in conditions, another parameter
	// hands it (nil: nowhere, or being computed).
	summary map[paramKey]summary
	// stamped are the object types whose conditions the package gives an
	// ObservedGeneration after they are set (a loop over
	// obj.Status.Conditions); stampsAny is set when it does so to
	// conditions it does not trace to an object.
	stamped   map[*types.TypeName]bool
	stampsAny bool
}

// function reports the condition literals of fn that lack an
// ObservedGeneration and end in the status of an object of fn.
func (c *checker) function(fn *ssa.Function) {
	defer crash.At(c.pass.Fset, fn.Pos())
	if strings.HasSuffix(c.pass.Fset.Position(fn.Pos()).Filename, "_test.go") {
		return // tests build conditions to compare with, and fakes to read
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			alloc, ok := instr.(*ssa.Alloc)
			if !ok || alloc.Comment != "complit" {
				continue
			}
			lit := c.lits[alloc.Pos()]
			if lit == nil || !lacksGeneration(c.pass.TypesInfo, lit) {
				continue
			}
			values, ok := literalValues(alloc, lit)
			if !ok {
				continue // its fields are written, or its address handed on, elsewhere
			}
			w := &walk{c: c, fn: fn}
			for _, v := range values {
				w.from(v, 0)
			}
			if w.unknown {
				continue
			}
			if t, ok := c.target(w.ends, lit); ok {
				c.report(lit, t)
			}
		}
	}
}

// A target is the object a literal's condition is set on, as reported.
type target struct {
	end  end
	expr ast.Expr // the object's expression, for the fix; nil without one
}

// target picks the object a literal ends at: the first one, when no end
// is of an object type whose conditions the package stamps. The fix is
// offered when every end names the object with the same simple
// expression, which means the same variable at the literal.
func (c *checker) target(ends []end, lit *ast.CompositeLit) (target, bool) {
	var objs []end
	for _, e := range ends {
		if e.obj == nil {
			continue
		}
		if c.stamped[typeName(e.objType)] {
			return target{}, false
		}
		objs = append(objs, e)
	}
	if len(objs) == 0 {
		return target{}, false
	}
	t := target{end: objs[0]}
	text := ""
	for i, e := range objs {
		x := c.objectExpr(e)
		if x == nil || !c.inScope(x, lit.Pos()) {
			return t, true
		}
		s := types.ExprString(x)
		if i > 0 && s != text {
			return t, true
		}
		text, t.expr = s, x
	}
	return t, true
}

func (c *checker) report(lit *ast.CompositeLit, t target) {
	obj := "the object"
	if x := c.objectExpr(t.end); x != nil {
		obj = types.ExprString(x)
	}
	what := "condition"
	if ty := conditionType(c.pass.TypesInfo, lit); ty != "" {
		what = fmt.Sprintf("condition %q", ty)
	}
	where := "set on its status"
	if t.end.at.IsValid() {
		where = fmt.Sprintf("set on %s's status at line %d", obj, c.pass.Fset.Position(t.end.at).Line)
		if t.end.via != "" {
			where += " (by " + t.end.via + ")"
		}
	}
	gen := "the object's metadata.generation"
	if t.expr != nil {
		gen = types.ExprString(t.expr) + ".Generation"
	}
	d := analysis.Diagnostic{
		Pos: lit.Pos(),
		End: lit.End(),
		Message: fmt.Sprintf("%s %s has no ObservedGeneration: the field is left out, so a client that compares it with metadata.generation (Flagger, the Gateway API's conformance tests) reads 0 and takes the condition for stale; set ObservedGeneration: %s",
			what, where, gen),
	}
	if t.expr != nil {
		if fix := generationFix(c.pass, lit, t.expr); fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
	}
	c.pass.Report(d)
}

// conditionType is the literal's Type when it is a constant string.
func conditionType(info *types.Info, lit *ast.CompositeLit) string {
	v := fieldValue(info, lit, "Type")
	if v == nil {
		return ""
	}
	if tv, ok := info.Types[v]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value)
	}
	return ""
}
