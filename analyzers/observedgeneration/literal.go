package observedgeneration

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// generationField is metav1.Condition's field that says which generation
// of the object the condition was computed from.
const generationField = "ObservedGeneration"

// isCondition reports whether t is metav1.Condition (through aliases).
func isCondition(t types.Type) bool {
	if t == nil {
		return false
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == kube.MetaV1Pkg && n.Obj().Name() == "Condition"
}

// conditionLiterals are the metav1.Condition composite literals of the
// package's files outside tests (an element of a []metav1.Condition
// literal with its type elided too), by the position of their opening
// brace.
func conditionLiterals(pass *analysis.Pass) map[token.Pos]*ast.CompositeLit {
	lits := make(map[token.Pos]*ast.CompositeLit)
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok && isCondition(pass.TypesInfo.TypeOf(lit)) {
				lits[lit.Lbrace] = lit
			}
			return true
		})
	}
	return lits
}

// lacksGeneration reports whether a condition literal leaves
// ObservedGeneration zero: it does not name the field, or gives it the
// constant 0.
func lacksGeneration(info *types.Info, lit *ast.CompositeLit) bool {
	v := fieldValue(info, lit, generationField)
	if v == nil {
		return len(lit.Elts) == 0 || isKeyed(lit)
	}
	tv, ok := info.Types[v]
	if !ok || tv.Value == nil {
		return false // a value computed at run time: the object's, or another's on purpose
	}
	n, exact := constant.Int64Val(constant.ToInt(tv.Value))
	return exact && n == 0
}

func isKeyed(lit *ast.CompositeLit) bool {
	if len(lit.Elts) == 0 {
		return false
	}
	_, ok := lit.Elts[0].(*ast.KeyValueExpr)
	return ok
}

// fieldValue is the expression a condition literal gives the named field,
// keyed or by position, or nil.
func fieldValue(info *types.Info, lit *ast.CompositeLit, field string) ast.Expr {
	st, _ := info.TypeOf(lit).Underlying().(*types.Struct)
	for i, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field {
				return kv.Value
			}
			continue
		}
		if st != nil && i < st.NumFields() && st.Field(i).Name() == field {
			return e
		}
	}
	return nil
}

// literalValues returns the values a literal's condition is read as: the
// loads of the memory SSA builds it in (the literal's value, or what a
// pointer to it, &metav1.Condition{...}, points to). ok is false when
// that memory may be given an ObservedGeneration after the literal (its
// field written, its address handed to a call or stored) or is used in
// ways not followed here.
func literalValues(alloc *ssa.Alloc, lit *ast.CompositeLit) (loads []ssa.Value, ok bool) {
	inLiteral := func(pos token.Pos) bool { return lit.Pos() <= pos && pos < lit.End() }
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			if inLiteral(r.Pos()) {
				continue // the literal's own fields
			}
			if !onlyFieldUse(r) {
				return nil, false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil, false
			}
			loads = append(loads, r)
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return loads, true
}

// onlyFieldUse reports whether a field address of a condition (a
// variable's, or a literal's through its pointer) is only read, or written
// and that field is not ObservedGeneration.
func onlyFieldUse(fa *ssa.FieldAddr) bool {
	written := false
	for _, ref := range *fa.Referrers() {
		switch r := ref.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.Store:
			if r.Addr != fa {
				return false // the address itself stored
			}
			written = true
		case *ssa.DebugRef:
		default:
			return false // handed on: it may be written
		}
	}
	return !written || fieldName(fa) != generationField
}

// fieldName is the name of the field a field address selects, or "".
func fieldName(fa *ssa.FieldAddr) string {
	pt, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return ""
	}
	st, ok := pt.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return ""
	}
	return st.Field(fa.Field).Name()
}

// generationFix gives the literal ObservedGeneration: X.Generation, X
// being the object's expression: in place of a constant 0, or as a field
// after the others (on a line of its own in a literal written over
// several).
func generationFix(pass *analysis.Pass, lit *ast.CompositeLit, x ast.Expr) *analysis.SuggestedFix {
	gen := types.ExprString(x) + ".Generation"
	fix := func(pos, end token.Pos, text string) *analysis.SuggestedFix {
		return &analysis.SuggestedFix{
			Message:   "Set ObservedGeneration: " + gen,
			TextEdits: []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(text)}},
		}
	}
	if v := fieldValue(pass.TypesInfo, lit, generationField); v != nil {
		return fix(v.Pos(), v.End(), gen)
	}
	field := generationField + ": " + gen
	if len(lit.Elts) == 0 {
		return fix(lit.Rbrace, lit.Rbrace, field)
	}
	if !isKeyed(lit) {
		return nil
	}
	last := lit.Elts[len(lit.Elts)-1]
	if pass.Fset.Position(lit.Rbrace).Line == pass.Fset.Position(last.End()).Line {
		return fix(last.End(), last.End(), ", "+field)
	}
	// Over several lines the last field ends with a comma and the brace
	// starts a line of its own: the new field goes on a line before it.
	indent := edit.Indent(pass, lit.Rbrace)
	return fix(lit.Rbrace, lit.Rbrace, "\t"+field+",\n"+indent)
}
