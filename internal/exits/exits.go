// Package exits knows, by name, the library functions that never return.
//
// Both SSA builders in ctrllint need it: the analyzers' own (which ends a
// block at such a call, so code after klog.Fatal is unreachable) and the
// driver's stand-in for ctrlflow's facts about the standard library, which
// it does not analyse from source.
package exits

import "go/types"

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

// Std reports whether fn is a standard library function that never
// returns.
func Std(fn *types.Func) bool { return std[key(fn)] }

// Is reports whether fn is a well-known library function that never
// returns: the standard library's and klog's.
func Is(fn *types.Func) bool {
	k := key(fn)
	return std[k] || klog[k]
}

func key(fn *types.Func) string {
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
