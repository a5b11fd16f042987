// Package crash places an analyzer's panic in the code it was analysing.
//
// A recovered panic says where in the analyzer it happened, not which
// function of the user's package made it happen; without that, a user
// cannot suppress the finding, work around it or write a useful bug
// report. Analyzers defer At around the analysis of each function, and
// the driver reports the position along with the analyzer and package.
package crash

import (
	"fmt"
	"go/token"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// A Panic is an analyzer's panic, with the position of the code being
// analysed and the stack where it started. It is the one name for an
// analyzer's crash on both sides: analyzers raise it (At), and the
// driver's AnalyzerError carries it as its Err, with Pos zero when the
// analyzer did not say where it was.
type Panic struct {
	Pos   token.Position
	Value any
	Stack string
}

func (p *Panic) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// At, deferred around the analysis of the node at pos, turns a panic into
// a *Panic naming that position. The innermost At wins.
//
//	defer crash.At(pass.Fset, fn.Pos())
func At(fset *token.FileSet, pos token.Pos) {
	if observing.Load() > 0 {
		if f, ok := observers.Load(fset); ok {
			caller := ""
			if pc, _, _, ok := runtime.Caller(1); ok {
				if fn := runtime.FuncForPC(pc); fn != nil {
					caller = fn.Name()
				}
			}
			f.(func(token.Pos, string))(pos, caller)
		}
	}
	v := recover()
	if v == nil {
		return
	}
	if _, ok := v.(*Panic); ok {
		panic(v)
	}
	panic(&Panic{Pos: fset.Position(pos), Value: v, Stack: string(debug.Stack())})
}

// observers are the functions Observe registered, by file set; observing
// counts them, so that At costs nothing more while there is none.
var (
	observers sync.Map // *token.FileSet → func(token.Pos, string)
	observing atomic.Int32
)

// Observe calls f each time an At deferred with fset runs, with At's
// position and the name of the function that deferred it
// ("github.com/ctrllint/ctrllint/analyzers/cachemutation.(*checker).check"),
// until stop is called: for tests that count what the analyzers analyse
// (the analysis of each function is wrapped in an At). A run's file set
// is its own, so runs observed and not observed do not mix. f must be safe
// for concurrent use.
func Observe(fset *token.FileSet, f func(pos token.Pos, caller string)) (stop func()) {
	observers.Store(fset, f)
	observing.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			observers.Delete(fset)
			observing.Add(-1)
		})
	}
}
