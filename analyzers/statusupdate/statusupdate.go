package statusupdate

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "statusupdate"

// Definition defines the analyzer: see doc.go.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "StatusChangeDropped",
	DocSource: DocSource,
	Requires:  []*analysis.Analyzer{kubessa.Analyzer},
	Run:       run,
})

// Analyzer reports status changes sent with a main-resource write and
// spec changes sent only with a status write, which the API server drops.
var Analyzer = Definition.Analyzer

func run(pass *analysis.Pass) (any, error) {
	if kube.LookupPackage(pass.Pkg, kube.MetaV1Pkg) == nil {
		return nil, nil // no Kubernetes objects in sight
	}
	ssaRes := kubessa.Of(pass)
	if ssaRes == nil {
		return nil, nil // the package cannot use the Kubernetes APIs
	}
	funcs := ssaRes.SrcFuncs
	sc := &scanner{
		pkg:       ssaRes.Pkg,
		summaries: make(map[*ssa.Function]*summary),
		fieldFns:  ssax.StoredFuncs(funcs),
	}
	sc.summarize(funcs)
	c := &checker{pass: pass, src: kube.NewSource(pass)}
	for _, fn := range ssaRes.Checked {
		if strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go") {
			continue // fake clients keep whatever they are sent
		}
		c.checkFunc(sc, fn)
	}
	return nil, nil
}

// checkFunc matches the stores and sends of fn.
func (c *checker) checkFunc(sc *scanner, fn *ssa.Function) {
	defer crash.At(c.pass.Fset, fn.Pos())
	evs, _ := sc.scan(fn)
	c.check(evs)
}

type checker struct {
	pass *analysis.Pass
	src  *kube.Source // the pass's: markers of the types it meets
}

// check matches the stores and sends of one function.
func (c *checker) check(evs []event) {
	pos := make(map[ssa.Instruction]position)
	at := func(e event) position {
		p, ok := pos[e.instr]
		if !ok {
			p = positionOf(e.instr)
			pos[e.instr] = p
		}
		p.sub = e.sub
		return p
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].pos < evs[j].pos })
	for _, u := range evs {
		if u.send == 0 || u.weak || u.defers {
			continue
		}
		var lost *event // the first store the send loses
		for i := range evs {
			s := &evs[i]
			if s.store == noPart || s.obj != u.obj {
				continue
			}
			t := s.typ
			if t == nil {
				t = u.typ
			}
			st := statusOf(t, c.src)
			if !st.Subresource || !dropped(u.send, s, st) {
				continue
			}
			if !reaches(at(*s), at(u), definition(u.obj), false) {
				continue
			}
			if c.excused(evs, s, &u, t, at) {
				continue
			}
			lost = s
			break
		}
		if lost != nil {
			c.report(evs, u, lost)
		}
	}
}

// dropped reports whether a send drops a store: a status store sent only
// to the main resource, a spec store or a reset metadata store sent only to
// the status subresource.
func dropped(k sendKind, s *event, st statusInfo) bool {
	switch k {
	case mainSend:
		return s.store == statusPart
	case statusSend:
		return s.store == specPart || s.store == metaPart && st.IgnoresMeta(s.field)
	}
	return false
}

// excused reports whether the store also reaches a send that keeps it:
// for a status store, a status write of an object of its type (or of
// unknown type) on a path after it, or in a defer; for a spec or metadata
// store, a main-resource write or a Create. Writing both, in either order,
// is how the two parts are meant to be sent.
func (c *checker) excused(evs []event, s, u *event, t types.Type, at func(event) position) bool {
	want := statusSend
	if s.store != statusPart {
		want = mainSend
	}
	for i := range evs {
		w := &evs[i]
		if w.send == 0 || w.instr == u.instr && w.send == u.send {
			continue // not a send, or the send itself
		}
		if w.send != want && !(want == mainSend && w.send == createSend) {
			continue
		}
		if w.typ != nil && t != nil && kindKey(w.typ) != kindKey(t) {
			continue
		}
		if w.defers || reaches(at(*s), at(*w), nil, true) {
			return true
		}
	}
	return false
}

// kindKey names the kind of object a type is or configures: an apply
// configuration of client-go's (appsv1ac.DeploymentApplyConfiguration)
// stands for its API type (appsv1.Deployment).
func kindKey(t types.Type) string {
	key := kube.ObjectKey(t)
	if rest, ok := strings.CutPrefix(key, kube.ApplyConfigurationsPfx); ok {
		return "k8s.io/api/" + strings.TrimSuffix(rest, "ApplyConfiguration")
	}
	return key
}

func (c *checker) report(evs []event, u event, s *event) {
	line := c.pass.Fset.Position(s.pos).Line
	t := s.typ
	if t == nil {
		t = u.typ // a store through client.Object: the object sent
	}
	kind := strings.TrimSuffix(kube.Kind(t), "ApplyConfiguration")
	if kind == "" {
		kind = "object"
	}
	how := u.method
	if u.via != nil {
		how = helperName(u.via) + " (which calls " + u.method + ")"
	}
	var msg string
	if u.send == mainSend {
		msg = statusMessage(kind, line, how, u)
	} else {
		msg = specMessage(kind, line, how, s, u)
	}
	d := analysis.Diagnostic{Pos: u.pos, Message: msg}
	if u.send == mainSend && u.direct != nil && onlyStatus(evs, u) {
		if fix := statusFix(c.pass, u); fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
	}
	c.pass.Report(d)
}

func statusMessage(kind string, line int, how string, u event) string {
	return fmt.Sprintf("%s status set at line %d is sent only with %s, which ignores status: %s has a status subresource, so the change is silently dropped; write status with %s",
		kind, line, how, kind, statusMethod(u))
}

func specMessage(kind string, line int, how string, s *event, u event) string {
	what, verb := "spec", "is"
	switch {
	case s.store == metaPart:
		what, verb = metaNames[s.field], "are"
	case s.field != "Spec":
		what = s.field
	}
	return fmt.Sprintf("%s %s changed at line %d %s sent only with %s, which keeps nothing but the status of the %s: the change is silently dropped; write it with %s",
		kind, what, line, verb, how, kind, mainMethod(u))
}

var metaNames = map[string]string{
	metaLabels:          "labels",
	metaAnnotations:     "annotations",
	metaFinalizers:      "finalizers",
	metaOwnerReferences: "owner references",
}

// statusMethod names the status write to use instead of a main send.
func statusMethod(u event) string {
	switch {
	case u.direct == nil:
		return "a status update (UpdateStatus, Status().Update)"
	case u.direct.mutate:
		return "Status().Update after it, or with controllerutil.CreateOrPatch, which patches status too"
	case u.direct.apply:
		if u.direct.typed {
			return "ApplyStatus"
		}
		return "Status().Apply"
	case u.direct.typed && u.direct.verb == "Patch":
		return `Patch(..., "status")`
	case u.direct.typed:
		return "UpdateStatus"
	}
	return "Status()." + u.direct.verb
}

// mainMethod names the main write to use instead of a status send.
func mainMethod(u event) string {
	switch {
	case u.direct == nil:
		return "Update or Patch"
	case u.direct.apply:
		return "Apply"
	case u.direct.typed && u.direct.verb == "Patch":
		return "Patch without the status subresource"
	case u.direct.typed:
		return "Update"
	}
	return "the client's " + u.direct.verb + ", not Status()." + u.direct.verb
}

// onlyStatus reports whether the object a main send writes has no other
// change in the function than its status: then sending it to the status
// subresource instead loses nothing.
func onlyStatus(evs []event, u event) bool {
	for _, e := range evs {
		if e.obj == u.obj && (e.store == specPart || e.store == metaPart) {
			return false
		}
	}
	return true
}

func helperName(fn *ssa.Function) string {
	if fn.Signature.Recv() != nil && len(fn.Params) > 0 {
		return fn.Params[0].Name() + "." + fn.Name()
	}
	if fn.Parent() != nil {
		return "a closure of " + fn.Parent().Name()
	}
	return fn.Name()
}
