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
	"runtime/debug"
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
	v := recover()
	if v == nil {
		return
	}
	if _, ok := v.(*Panic); ok {
		panic(v)
	}
	panic(&Panic{Pos: fset.Position(pos), Value: v, Stack: string(debug.Stack())})
}
