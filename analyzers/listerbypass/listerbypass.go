package listerbypass

import (
	"flag"
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/eventpath"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/internal/crash"
	"github.com/ctrllint/ctrllint/internal/lend"
)

const name = "listerbypass"

// Definition defines the analyzer: see doc.go. Its option is per
// instance, so differently configured instances (golangci-lint plugin
// instances, say) never share a setting.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "ReadBypassesInformerCache",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer, eventpath.Analyzer, lend.Analyzer, summary.Analyzer},
	FactTypes: []analysis.Fact{new(ReadsFact)},
	Options: func(fs *flag.FlagSet) define.RunFunc {
		// all widens the analyzer to every clientset read in a processing
		// path, cached or not: for controllers that are meant to read only
		// from caches.
		all := fs.Bool("all", false, "also report reads of resources the controller does not cache")
		return func(pass *analysis.Pass) (any, error) { return run(pass, *all) }
	},
})

// Analyzer reports API reads in a controller's processing path for
// resources the controller already caches.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass, all bool) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.MetaV1Pkg) == nil {
		return nil, nil // no Kubernetes API in sight
	}
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	if summary.Exports(pass) {
		// What the package's helpers read, from their own code: no fact
		// is read to make it.
		newSummariser(pass, ssaRes.Pkg).export()
	}
	caches := collectCaches(pass.Pkg, ssaRes.SrcFuncs)
	paths := eventpath.Of(pass)
	// Closures handed to retry.RetryOnConflict and its kin are left off
	// the path: a fresh read is what they are for.
	onPath := paths.Processing(kube.IsFreshReadFunc)
	onEvent := paths.PerEvent(onPath, kube.IsFreshReadFunc)
	callers := callersOf(ssaRes.SrcFuncs)
	for _, fn := range ssaRes.Checked {
		checkFallbacks(pass, fn)
	}
	for _, fn := range ssaRes.Checked {
		if !onEvent[fn] {
			continue // set-up code, or not a controller at all
		}
		own := onPath[fn]
		listOnly := false
		if len(own) == 0 {
			// A periodic pass or an event handler of a controller type:
			// its Lists of what the type caches bypass that cache too
			// (k8s.io/cloud-provider's node controller before v0.27
			// listed every Node on each pass beside its node lister).
			if o := eventpath.OwnerOf(fn); o != nil {
				own, listOnly = eventpath.Owners{o: true}, true
			}
		}
		checkReads(pass, fn, own, listOnly, caches, callers, all)
	}
	return nil, nil
}

// A verdict says which report a read gets.
type verdict int

const (
	silent    verdict = iota
	bypass            // the controller caches the resource: read its cache
	uncached          // nothing in the package caches it: add an informer
	elsewhere         // -all: another controller of the package caches it
)

// judge decides what a read on fn's per-event path gets. own is empty for
// a function off the processing path (an event handler or a periodic pass):
// only uncached reads are reported there.
func judge(r read, own eventpath.Owners, fn *ssa.Function, c *caches, all bool) verdict {
	switch {
	case len(own) > 0 && c.cachedFor(r, own, fn):
		return bypass
	case r.kind != typedRead:
		return silent // the dynamic client and controller-runtime: only bypasses
	case !c.informed(r) && (r.method == "List" || all):
		// Gets are left to -all: one object per event is often read live on
		// purpose (a Secret's credentials, a Node's address), and caching a
		// whole resource for it costs the memory of all its objects.
		return uncached
	case all && len(own) > 0:
		return elsewhere
	}
	return silent
}

// checkReads reports the reads of fn that bypass a cache or call for one.
func checkReads(pass *analysis.Pass, fn *ssa.Function, own eventpath.Owners, listOnly bool, caches *caches, callers map[*ssa.Function][]*ssa.Function, all bool) {
	defer crash.At(pass.Fset, fn.Pos())
	ownFor := func(r read) eventpath.Owners {
		if listOnly && r.method != "List" {
			return nil
		}
		return own
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if r, ok := readOf(instr, caches); ok {
				checkRead(pass, fn, r, ownFor(r), caches, callers, all)
				continue
			}
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			// A helper of another package that reads through the
			// clientset it is handed: its first read that is not
			// deliberate inside it, judged at the call.
			hrs, helper := helperReads(pass, call)
			for _, hr := range hrs {
				if hr.Deliberate {
					continue
				}
				r := helperRead(call, hr)
				r.via = ssax.FuncName(helper, nil)
				if checkRead(pass, fn, r, ownFor(r), caches, callers, all) {
					break
				}
			}
		}
	}
}

// checkRead reports one read of fn if it bypasses a cache or calls for
// one, and says whether it did.
func checkRead(pass *analysis.Pass, fn *ssa.Function, r read, own eventpath.Owners, caches *caches, callers map[*ssa.Function][]*ssa.Function, all bool) bool {
	v := judge(r, own, fn, caches, all)
	if v == silent {
		return false
	}
	if v == uncached && strings.HasSuffix(pass.Fset.Position(r.call.Pos()).Filename, "_test.go") {
		return false // a test's fake clientset has no API server to spare
	}
	if primaryRead(fn, r, caches) {
		if readsCacheToo(fn, r) {
			return false // a confirmation of what the cache says
		}
	} else if deliberate(fn, r, callers) {
		return false // read-modify-write, or a double-check of the cache
	}
	d := analysis.Diagnostic{Pos: r.call.Pos(), Message: message(fn, r, own, caches, v)}
	if v == bypass && r.via == "" {
		if fix := listerFix(pass, fn, r, caches); fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
	}
	pass.Report(d)
	return true
}

// message names the resource and the cache to read from instead.
func message(fn *ssa.Function, r read, own eventpath.Owners, c *caches, v verdict) string {
	switch r.kind {
	case dynamicRead:
		return fmt.Sprintf("dynamic client %s of %s goes to the API server on every sync, though the package's dynamic informer factory caches it: read through ForResource(...).Lister()", r.method, r.key)
	case apiRead:
		return fmt.Sprintf("%s of %s through an uncached reader goes to the API server on every reconcile, though the manager's cache watches %s: use the manager's client", r.method, kube.Kind(r.object), kube.Kind(r.object))
	}
	kind := r.kindOf()
	what := fmt.Sprintf("clientset %s of %s", r.method, kind)
	if r.via != "" {
		what += fmt.Sprintf(" in %s (%s)", r.via, r.at)
	}
	switch v {
	case uncached:
		if c.controllerRuntime {
			return fmt.Sprintf("%s goes to the API server on every event, and the controller has no informer of %s: add one (read through the manager's client, whose cache starts one for %s)", what, kind, kind)
		}
		return fmt.Sprintf("%s goes to the API server on every event, and the controller has no informer of %s: add one (a %s lister from a shared informer factory) and read through it", what, kind, kind)
	case elsewhere:
		return fmt.Sprintf("%s in a processing path goes to the API server on every sync; the controller has no cache for %s", what, kind)
	}
	return fmt.Sprintf("%s goes to the API server on every sync, though the controller caches %s: read through %s", what, kind, listerName(fn, r, own, c))
}

// listerName says which cache to read from: a lister field of the
// receiver, else one the controllers on fn's path reach (any of the
// package's when a path has no controller type), else the factory.
func listerName(fn *ssa.Function, r read, own eventpath.Owners, c *caches) string {
	fs := c.fields[r.key]
	if f, recv := receiverField(fn, fs); f != nil {
		return recv + "." + accessor(f)
	}
	if f := c.reachableField(fs, own, fn); f != nil {
		return "the " + accessor(f) + " field's lister"
	}
	if len(fs) > 0 && own[nil] {
		return "the " + accessor(fs[0]) + " field's lister"
	}
	return "a " + r.kindOf() + " lister from the package's informer factory"
}

// receiverField returns the field among fs that belongs to fn's receiver
// type, and the receiver's name.
func receiverField(fn *ssa.Function, fs []*types.Var) (*types.Var, string) {
	sig := fn.Signature
	if sig.Recv() == nil || len(fn.Params) == 0 {
		return nil, ""
	}
	recvType := sig.Recv().Type()
	if p, ok := recvType.(*types.Pointer); ok {
		recvType = p.Elem()
	}
	st, ok := recvType.Underlying().(*types.Struct)
	if !ok {
		return nil, ""
	}
	for i := range st.NumFields() {
		for _, f := range fs {
			if st.Field(i) == f {
				return f, fn.Params[0].Name()
			}
		}
	}
	return nil, ""
}

// accessor spells how a field yields a lister.
func accessor(f *types.Var) string {
	if kube.IsInformer(f.Type()) {
		return f.Name() + ".Lister()"
	}
	return f.Name()
}
