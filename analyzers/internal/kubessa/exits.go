package kubessa

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// IsExit reports whether fn is a well-known function of another package
// that never returns (the standard library's exits and klog's). They are
// known by name because dependencies come from export data, which says
// nothing of a function's body.
func IsExit(fn *types.Func) bool {
	k := exitKey(fn)
	return std[k] || klog[k]
}

// localExits finds the package's own functions that never return: those
// with no return statement whose body ends in a call to panic or to a
// function that never returns (`func fatalf(...) { klog.Fatalf(...) }`),
// to a fixed point.
func localExits(pass *analysis.Pass) map[*types.Func]bool {
	type candidate struct {
		fn   *types.Func
		last *ast.CallExpr
	}
	var cands []candidate
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || len(fd.Body.List) == 0 || fd.Type.Results != nil {
				continue
			}
			es, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.ExprStmt)
			if !ok {
				continue
			}
			call, ok := astutil.Unparen(es.X).(*ast.CallExpr)
			if !ok || hasReturn(fd.Body) {
				continue
			}
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				cands = append(cands, candidate{fn, call})
			}
		}
	}
	out := make(map[*types.Func]bool)
	for changed := true; changed; {
		changed = false
		for _, c := range cands {
			if out[c.fn] {
				continue
			}
			if callsExit(pass.TypesInfo, c.last, out) {
				out[c.fn] = true
				changed = true
			}
		}
	}
	return out
}

func callsExit(info *types.Info, call *ast.CallExpr, local map[*types.Func]bool) bool {
	var id *ast.Ident
	switch f := astutil.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	switch obj := info.Uses[id].(type) {
	case *types.Builtin:
		return obj.Name() == "panic"
	case *types.Func:
		return local[obj] || IsExit(obj)
	}
	return false
}

// hasReturn reports whether body has a return statement outside function
// literals.
func hasReturn(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ReturnStmt:
			found = true
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// std lists standard library functions that never return, as
// "pkg.Recv.Name" (Recv empty for functions).
var std = map[string]bool{
	"os..Exit": true, "runtime..Goexit": true, "syscall..Exit": true,
	"log..Fatal": true, "log..Fatalf": true, "log..Fatalln": true,
	"log..Panic": true, "log..Panicf": true, "log..Panicln": true,
	"log.Logger.Fatal": true, "log.Logger.Fatalf": true, "log.Logger.Fatalln": true,
	"log.Logger.Panic": true, "log.Logger.Panicf": true, "log.Logger.Panicln": true,
	// Promoted to *testing.T, *testing.B and *testing.F.
	"testing.common.FailNow": true, "testing.common.Fatal": true, "testing.common.Fatalf": true,
	"testing.common.SkipNow": true, "testing.common.Skip": true, "testing.common.Skipf": true,
}

// klog's exits end in a call through a variable (klog.OsExit), which
// control-flow analysis cannot see through; they are known by name only.
var klog = map[string]bool{
	"k8s.io/klog/v2..Fatal": true, "k8s.io/klog/v2..Fatalf": true, "k8s.io/klog/v2..Fatalln": true,
	"k8s.io/klog/v2..FatalDepth": true, "k8s.io/klog/v2..Exit": true, "k8s.io/klog/v2..Exitf": true,
	"k8s.io/klog/v2..Exitln": true, "k8s.io/klog/v2..ExitDepth": true,
	"k8s.io/klog/v2..FlushAndExit": true,
}

func exitKey(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	recv := ""
	if r := fn.Signature().Recv(); r != nil {
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			recv = n.Obj().Name()
		}
	}
	return fn.Pkg().Path() + "." + recv + "." + fn.Name()
}
