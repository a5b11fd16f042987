package driver

import (
	"fmt"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
)

// panicError is an analyzer's panic turned into an error.
type panicError struct {
	value any
	stack string
}

func (p *panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// guard returns stand-ins for analyzers (and everything they require)
// whose Run recovers panics. The checker runs each analyzer on its own
// goroutine, where a panic would kill the whole process and lose every
// other analyzer's findings; a bug in one analyzer must cost only that
// analyzer's results on that package.
//
// The stand-ins are copies, not the originals, so analyzers must not be
// mutated (they are package-level values shared with other front ends).
// Each copy hands the original Run a pass whose Analyzer and ResultOf are
// keyed by the original analyzers, because analyzer code looks up
// pass.ResultOf[inspect.Analyzer], not our copy.
//
// orig maps each stand-in back to its original.
func guard(analyzers []*analysis.Analyzer) (wrapped []*analysis.Analyzer, orig map[*analysis.Analyzer]*analysis.Analyzer) {
	copies := make(map[*analysis.Analyzer]*analysis.Analyzer)
	orig = make(map[*analysis.Analyzer]*analysis.Analyzer)
	var wrap func(a *analysis.Analyzer) *analysis.Analyzer
	wrap = func(a *analysis.Analyzer) *analysis.Analyzer {
		if w, ok := copies[a]; ok {
			return w
		}
		w := new(analysis.Analyzer)
		*w = *a
		copies[a] = w
		orig[w] = a
		w.Requires = make([]*analysis.Analyzer, len(a.Requires))
		for i, r := range a.Requires {
			w.Requires[i] = wrap(r)
		}
		w.Run = func(pass *analysis.Pass) (res any, err error) {
			inner := *pass
			inner.Analyzer = a
			inner.ResultOf = make(map[*analysis.Analyzer]any, len(pass.ResultOf))
			for k, v := range pass.ResultOf {
				inner.ResultOf[orig[k]] = v
			}
			defer func() {
				if v := recover(); v != nil {
					res, err = nil, &panicError{value: v, stack: string(debug.Stack())}
				}
			}()
			return a.Run(&inner)
		}
		return w
	}
	for _, a := range analyzers {
		wrapped = append(wrapped, wrap(a))
	}
	return wrapped, orig
}
