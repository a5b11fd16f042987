package requeueerr

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

type checker struct {
	pass    *analysis.Pass
	pkg     *ssa.Package
	globals globals
}

// check reports a return statement whose Result provably asks for a
// requeue and whose error is provably non-nil, or nil.
func (c *checker) check(r ret) *finding {
	if r.result == nil || r.err == nil {
		return nil
	}
	field := c.requeue(r.result)
	if field == "" || !c.nonNil(r.err, r.ret.Block(), r.deferred) {
		return nil
	}
	return &finding{field: field, terminal: terminal(r.err)}
}
