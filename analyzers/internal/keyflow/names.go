package keyflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// Names is how the source spells an item's queue and key, for messages and
// fixes.
type Names struct {
	Queue string // "c.queue"
	Key   string // "key", or "" when the key has no name
	// KeyVar is the variable holding the key at the Get, if any.
	KeyVar *types.Var
}

// NamesOf reads the names at the Get: `key, quit := c.queue.Get()`.
func NamesOf(pass *analysis.Pass, it *Item) Names {
	var n Names
	path := pathAt(pass, it.Get.Pos())
	for _, node := range path {
		switch node := node.(type) {
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(node.Fun).(*ast.SelectorExpr); ok && n.Queue == "" {
				n.Queue = types.ExprString(sel.X)
			}
		case *ast.AssignStmt:
			if id, ok := node.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
				n.Key = id.Name
				n.KeyVar, _ = pass.TypesInfo.ObjectOf(id).(*types.Var)
			}
			return n
		case ast.Stmt:
			return n
		}
	}
	return n
}

// QueueExprIn finds, in fn, a queue call applied to one of keys and returns
// how its receiver and key argument are spelled: a helper that calls
// c.queue.AddRateLimited(key) can be fixed with c.queue.Forget(key).
func QueueExprIn(pass *analysis.Pass, fn *ssa.Function, keys map[ssa.Value]bool) (queue, key string) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			_, _, args, ok := QueueOp(call.Common())
			if !ok || len(args) == 0 || !keys[args[0]] {
				continue
			}
			for _, node := range pathAt(pass, call.Pos()) {
				ce, ok := node.(*ast.CallExpr)
				if !ok || len(ce.Args) == 0 {
					continue
				}
				sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
				id, isIdent := ast.Unparen(ce.Args[0]).(*ast.Ident)
				if ok && isIdent {
					return types.ExprString(sel.X), id.Name
				}
				break
			}
		}
	}
	return "", ""
}

// pathAt is the AST path to pos, innermost first.
func pathAt(pass *analysis.Pass, pos token.Pos) []ast.Node {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, pos, pos)
			return path
		}
	}
	return nil
}

// ReturnStmt returns the return statement at a leak's position, or nil for
// the implicit return at the end of a function.
func ReturnStmt(pass *analysis.Pass, pos token.Pos) *ast.ReturnStmt {
	for _, node := range pathAt(pass, pos) {
		if r, ok := node.(*ast.ReturnStmt); ok && r.Pos() == pos {
			return r
		}
	}
	return nil
}

// Describe names a leak's key for a message: "key from c.queue.Get()", or,
// in a helper, "key (from c.queue.Get() in processNextWorkItem)".
func Describe(l Leak, n Names) string {
	key := n.Key
	if l.Fn != l.Item.Fn {
		key = paramName(l)
	}
	if key == "" {
		key = "the key"
	}
	queue := n.Queue
	if queue == "" {
		queue = "the queue"
	}
	if l.Fn != l.Item.Fn {
		return key + " (from " + queue + ".Get() in " + l.Item.Fn.Name() + ")"
	}
	return key + " from " + queue + ".Get()"
}

// paramName is the name of the helper parameter or captured variable that
// carries the key.
func paramName(l Leak) string {
	for _, p := range l.Fn.Params {
		if l.Keys[p] {
			return p.Name()
		}
	}
	for _, fv := range l.Fn.FreeVars {
		if l.Keys[fv] {
			return fv.Name()
		}
	}
	return ""
}

// ReportPos is where a leak is reported: the return statement, the closing
// brace of a function that ends without one, or the Get when the path loops
// back to it.
func ReportPos(l Leak) token.Pos {
	if pos := l.Pos(); pos.IsValid() {
		return pos
	}
	if syn := l.Fn.Syntax(); syn != nil {
		return syn.End() - 1
	}
	return l.Item.Get.Pos()
}

// Lines lists the lines of the leaks' report positions, "12, 30 and 41".
func Lines(fset *token.FileSet, leaks []Leak) string {
	var nums []int
	for _, l := range leaks {
		nums = append(nums, fset.Position(ReportPos(l)).Line)
	}
	slices.Sort(nums)
	var lines []string
	for _, n := range slices.Compact(nums) {
		lines = append(lines, strconv.Itoa(n))
	}
	if len(lines) < 2 {
		return strings.Join(lines, "")
	}
	return strings.Join(lines[:len(lines)-1], ", ") + " and " + lines[len(lines)-1]
}
