package forget

import "github.com/ctrllint/ctrllint/analyzers/internal/keyflow"

// keyFact is what a function of the module does, on its paths, with a
// work-queue key handed to each of its parameters: forgets or re-queues
// it on every path, on some, or never (keyflow.Summarise under settles).
// It carries a shared handleErr or queue wrapper's behaviour to the
// workers of other packages that call it.
type keyFact struct{ Params []keyflow.Effect }

func (*keyFact) AFact() {}

func (f *keyFact) Effects() []keyflow.Effect { return f.Params }

func (f *keyFact) String() string { return "forget(" + keyflow.DescribeEffects(f.Params) + ")" }

func newKeyFact(es []keyflow.Effect) *keyFact { return &keyFact{Params: es} }
