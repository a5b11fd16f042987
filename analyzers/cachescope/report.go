package cachescope

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// fixHint is what every finding proposes.
const fixHint = "read live (through mgr.GetAPIReader(), or by listing the kind in client.CacheOptions.DisableFor), or restrict the cache (a ByObject entry with a Label or Field selector, DefaultNamespaces)"

// report reports the cached reads of costly kinds that the manager built
// by call makes its cache hold cluster-wide: at the read when it is in
// the package, once per kind at the call for the reads of the packages
// it reaches.
func (p *pkg) report(call *ssa.Call, facts *CacheFact) {
	if p.unknownWatch || facts.UnknownWatch {
		return // a watch of a kind not known here may keep any kind
	}
	s := p.options(call)
	if s.unknown || s.all {
		return
	}
	ns := s.namespaces()
	if ns == nsSure {
		return
	}
	informers := make(map[string]bool) // the kinds whose informers ByObject restricts
	if s.byObject {
		for _, e := range p.entries() {
			switch {
			case !e.restricts:
			case e.object == nil:
				return // an entry for a kind not known here
			default:
				informers[kube.ObjectKey(e.object)] = true
			}
		}
	}
	restricted := maps.Clone(s.kinds)
	maps.Copy(restricted, informers)
	watched := maps.Clone(p.watched)
	for _, k := range facts.Watched {
		watched[k] = true
	}
	managerFields := maps.Clone(p.managerFields)
	for _, k := range facts.ManagerFields {
		managerFields[k] = true
	}
	cached := func(sources func(func(string) bool)) bool {
		for src := range sources {
			if src == "" || managerFields[src] {
				return true
			}
		}
		return false
	}
	when := ""
	if ns == nsMaybe {
		when = " when no namespace is given"
	}
	p.reportFiltered(call, facts, informers, ns)

	for _, r := range p.reads {
		key := kube.ObjectKey(r.object)
		if watched[key] || restricted[key] || !p.checked[r.call.Parent()] || !cached(maps.Keys(r.sources)) {
			continue
		}
		k := kube.Kind(r.object)
		p.pass.Reportf(r.call.Pos(), "this %s of %s goes through the manager's cached client: no controller watches %ss and the cache options do not restrict them, "+
			"so it starts an informer that holds every %s of the cluster%s; %s",
			r.method, p.kindName(r.object, r.call.Pos()), k, k, when, fixHint)
	}

	byKind := make(map[string][]Read)
	for _, r := range facts.Reads {
		if r.Pkg == p.pass.Pkg.Path() || watched[r.Kind] || restricted[r.Kind] || !cached(slices.Values(r.Sources)) {
			continue
		}
		byKind[r.Kind] = append(byKind[r.Kind], r)
	}
	for _, key := range slices.Sorted(maps.Keys(byKind)) {
		reads := byKind[key]
		slices.SortFunc(reads, func(a, b Read) int { return cmp.Or(cmp.Compare(a.Pkg, b.Pkg), cmp.Compare(a.At, b.At)) })
		first := reads[0]
		more := ""
		if n := len(reads) - 1; n == 1 {
			more = " (and 1 more read)"
		} else if n > 1 {
			more = fmt.Sprintf(" (and %d more reads)", n)
		}
		k := kindOf(key)
		p.pass.Reportf(call.Pos(), "the manager's cache holds every %s of the cluster%s: %s in %s reads %ss through the manager's cached client%s, "+
			"no controller watches their content, and these options do not restrict them; %s",
			k, when, first.At, first.Pkg, k, more, fixHint)
	}
}

// emptyEntries reports ByObject entries of costly kinds that set nothing.
func (p *pkg) emptyEntries() {
	for _, e := range p.entries() {
		if !e.empty || e.object == nil || !kube.IsCostlyToCache(e.object) || !p.checked[e.update.Parent()] {
			continue
		}
		k := kube.Kind(e.object)
		p.pass.Reportf(e.update.Pos(), "this ByObject entry for %s sets no selector, namespace or transform: it filters nothing, and the cache holds every %s of the namespaces it watches; "+
			"give it a Label or Field selector (or Namespaces), or read %ss with mgr.GetAPIReader() and drop the entry",
			p.kindName(e.object, e.update.Pos()), k, k)
	}
}

// kindOf is the type name of an object key: Secret for
// k8s.io/api/core/v1.Secret.
func kindOf(key string) string {
	for i := len(key) - 1; i >= 0; i-- {
		if key[i] == '.' {
			return key[i+1:]
		}
	}
	return key
}

// reportFiltered reports the watches of costly kinds whose predicates
// select objects by labels, name or namespace while the cache options do
// not restrict the kind's informer (ByObject; DisableFor sends reads to
// the API server but leaves a watch's informer as it is): at the watch
// when it is in the package, once per kind at the manager's call
// otherwise. A kind some watch keeps without such a predicate is left
// alone: that watch wants every object of the kind.
func (p *pkg) reportFiltered(call *ssa.Call, facts *CacheFact, informers map[string]bool, ns namespaces) {
	unfiltered := maps.Clone(p.unfiltered)
	for _, k := range facts.Unfiltered {
		unfiltered[k] = true
	}
	skip := func(key string, by selects) bool {
		// With namespaces on some runs, a namespace predicate may be
		// the cluster-wide mode's own choice.
		return unfiltered[key] || informers[key] || ns == nsMaybe && by&^byNamespace == 0
	}
	when := ""
	if ns == nsMaybe {
		when = " when no namespace is given"
	}
	for _, w := range p.filtered {
		key := kube.ObjectKey(w.object)
		if skip(key, w.by) || !p.checked[w.call.Parent()] {
			continue
		}
		k := kube.Kind(w.object)
		p.pass.Reportf(w.call.Pos(), "the predicates of this watch select %ss by their %s, but a predicate filters events, not the cache: "+
			"the manager's cache still holds every %s of the cluster%s; %s",
			k, w.by, k, when, restrictHint(p.kindName(w.object, w.call.Pos()), k, w.by))
	}
	byKind := make(map[string][]Filtered)
	for _, w := range facts.Filtered {
		if w.Pkg == p.pass.Pkg.Path() || skip(w.Kind, w.By) {
			continue
		}
		byKind[w.Kind] = append(byKind[w.Kind], w)
	}
	for _, key := range slices.Sorted(maps.Keys(byKind)) {
		first := byKind[key][0] // the fact's order: by package, then position
		k := kindOf(key)
		p.pass.Reportf(call.Pos(), "the manager's cache holds every %s of the cluster%s: the watch at %s in %s selects %ss by their %s with a predicate, "+
			"which filters events, not the cache, and these options do not restrict %ss; %s",
			k, when, first.At, first.Pkg, k, first.By, k, restrictHint(k, k, first.By))
	}
}

// restrictHint says how to give the cache the restriction a predicate
// selecting by `by` meant.
func restrictHint(typeName, kind string, by selects) string {
	return fmt.Sprintf("restrict the informer itself (a ByObject entry for %s with %s), and read any %s it leaves out through mgr.GetAPIReader()",
		typeName, strings.Join(by.names(true), " or "), kind)
}
