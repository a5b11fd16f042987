package rbacmarkers

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/internal/crash"
)

const name = "rbacmarkers"

// Definition defines the analyzer: see doc.go. Its options are per
// instance.
var Definition = define.New(define.Spec{
	Name:      name,
	RuleName:  "MissingOrUnreadRBACMarker",
	DocSource: DocSource,
	Options: func(fs *flag.FlagSet) define.RunFunc {
		o := options{resources: resourceNames{}}
		fs.Var(o.resources, "resources", "resource names of kinds whose plural is not the regular one, as Kind.group=plural pairs separated by commas (Kind=plural for the core group)")
		fs.BoolVar(&o.finalizers, "finalizers", true, "report SetControllerReference when no marker grants update on the owner's <resource>/finalizers, which clusters enforcing OwnerReferencesPermissionEnforcement (OpenShift) require")
		return func(pass *analysis.Pass) (any, error) { return run(pass, o) }
	},
})

// Analyzer reports client calls no +kubebuilder:rbac marker grants, and
// markers controller-gen never reads.
var Analyzer = Definition.Analyzer

type options struct {
	resources  resourceNames
	finalizers bool
}

type checker struct {
	pass   *analysis.Pass
	opts   options
	src    *kube.Source
	groups map[*types.Package]groupName
	own    []*marker // the package's markers controller-gen reads
	module moduleScan
	root   *string // the module's root directory, once found
}

func run(pass *analysis.Pass, opts options) (any, error) {
	if !mentionsMarkers(pass) {
		return nil, nil // no rbac marker: RBAC is managed some other way
	}
	c := &checker{pass: pass, opts: opts, src: kube.NewSource(pass), groups: map[*types.Package]groupName{}}
	old := c.oldControllerGen()
	var unread []*marker
	for _, f := range pass.Files {
		test := strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go")
		for _, m := range fileMarkers(f, test) {
			if old && !test {
				m.read = true // controller-tools v0.1 read every marker
			}
			switch {
			case old && !m.read:
				// What controller-tools v0.1 made of it is not known.
			case !m.read:
				unread = append(unread, m)
			case m.parsed:
				c.own = append(c.own, m)
			}
		}
	}
	c.reportUnread(unread)
	if len(c.own) == 0 {
		return nil, nil // the calls are checked only against a package's own markers' module
	}
	var missing []finding
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue // tests use fake clients
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				missing = append(missing, c.checkFunc(fd)...)
			}
		}
	}
	c.reportMissing(missing)
	return nil, nil
}

// mentionsMarkers is a quick look for the marker's name in the package's
// comments.
func mentionsMarkers(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				if strings.Contains(cm.Text, "+kubebuilder:rbac") {
					return true
				}
			}
		}
	}
	return false
}

// A finding is a need no marker grants.
type finding struct {
	need
	missing []string // the verbs to add
}

// checkFunc returns the needs of a function's calls that no marker grants.
func (c *checker) checkFunc(fd *ast.FuncDecl) []finding {
	defer crash.At(c.pass.Fset, fd.Pos())
	var out []finding
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		var needs []need
		switch x := n.(type) {
		case *ast.CallExpr:
			needs = c.needsOf(x)
		case *ast.CompositeLit:
			needs = c.sourceKindNeeds(x)
		}
		for _, nd := range needs {
			nd = c.resolve(nd)
			if missing := c.missing(nd); missing != nil {
				out = append(out, finding{nd, missing})
			}
		}
		return true
	})
	return out
}

// missing returns the verbs of a need no marker grants, or nil when the
// markers grant what it needs.
func (c *checker) missing(n need) []string {
	if c.granted(n, n.verbs, false) || n.orVerbs != nil && c.granted(n, n.orVerbs, false) {
		return nil
	}
	if c.granted(n, n.verbs, true) || n.orVerbs != nil && c.granted(n, n.orVerbs, true) {
		return nil
	}
	var out []string
	for _, v := range n.verbs {
		if !c.grantedVerb(n, v, true) {
			out = append(out, v)
		}
	}
	return out
}

// granted reports whether every verb is granted, by the package's own
// markers or, with module, by any of the module's.
func (c *checker) granted(n need, verbs []string, module bool) bool {
	for _, v := range verbs {
		if !c.grantedVerb(n, v, module) {
			return false
		}
	}
	return true
}

func (c *checker) grantedVerb(n need, verb string, module bool) bool {
	for _, m := range c.own {
		if m.rule.grants(n.res, n.sub, verb) {
			return true
		}
	}
	if module {
		for _, r := range c.moduleRules() {
			if r.grants(n.res, n.sub, verb) {
				return true
			}
		}
	}
	return false
}

// reportMissing reports the needs no marker grants, each with a fix that
// adds the markers its package lacks beside its existing ones.
func (c *checker) reportMissing(fs []finding) {
	fixes := c.addMarkerFixes(fs)
	for i, f := range fs {
		res := f.res.String()
		if f.sub != "" {
			res = f.res.plural + "/" + f.sub + groupSuffix(f.res.group)
		}
		var msg strings.Builder
		fmt.Fprintf(&msg, "%s %s %s, and no +kubebuilder:rbac marker grants %s on %s", f.what, f.does, objectPhrase(f.does, f.res.kind), andList(f.missing), res)
		if f.orVerbs != nil {
			fmt.Fprintf(&msg, " (nor %s)", andList(f.orVerbs))
		}
		then := f.then
		if then == "" {
			then = "the API server refuses the call under the role controller-gen generates"
		}
		fmt.Fprintf(&msg, ": %s; add %s", then, markerLine(f.res, f.sub, f.missing, c.coreStyle()))
		d := analysis.Diagnostic{Pos: reportPos(f.call), End: f.call.End(), Message: msg.String()}
		if fix, ok := fixes[i]; ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
		c.pass.Report(d)
	}
}

// reportUnread reports the rbac markers controller-gen does not read: one
// finding for the markers of one comment group, at the first.
func (c *checker) reportUnread(ms []*marker) {
	fixes := c.moveMarkerFixes(ms)
	var groups [][]*marker
	for i, m := range ms {
		if i > 0 && ms[i-1].group == m.group {
			groups[len(groups)-1] = append(groups[len(groups)-1], m)
			continue
		}
		groups = append(groups, []*marker{m})
	}
	for _, g := range groups {
		m := g[0]
		advice := "move it above the declaration, separated from any doc comment by a blank line"
		switch {
		case m.doc != nil:
			advice = "separate the markers from the doc comment with a blank line"
		case strings.HasPrefix(m.where, "a _test.go"):
			advice = "move it to a file of the package's code"
		}
		what, is, grants := "this +kubebuilder:rbac marker", "it is", "it grants"
		if len(g) > 1 {
			what, is, grants = fmt.Sprintf("these %d +kubebuilder:rbac markers", len(g)), "they are", "they grant"
			advice = strings.ReplaceAll(advice, "move it", "move them")
		}
		msg := fmt.Sprintf("controller-gen does not read %s: %s in %s, and rbac markers are read only at package level, so the role lacks what %s; %s",
			what, is, m.where, grants, advice)
		d := analysis.Diagnostic{Pos: m.comment.Pos(), End: g[len(g)-1].comment.End(), Message: msg}
		if fix, ok := fixes[m]; ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
		c.pass.Report(d)
	}
}

// reportPos is where a call's finding goes: the method's name in a chain
// (builder...Owns), else the call's start.
func reportPos(n ast.Node) token.Pos {
	if call, ok := n.(*ast.CallExpr); ok {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if _, chained := ast.Unparen(sel.X).(*ast.CallExpr); chained {
				return sel.Sel.Pos()
			}
		}
	}
	return n.Pos()
}

func groupSuffix(group string) string {
	if group == "" {
		return ""
	}
	return "." + group
}

// objectPhrase is what a call acts on: a Deployment it creates,
// Deployments it lists or watches.
func objectPhrase(does, kind string) string {
	switch does {
	case "lists", "watches", "deletes a collection of", "starts an informer on":
		return kindPlural(kind)
	}
	return article(kind)
}

// kindPlural is a kind's plural for a message: Secrets, Ingresses,
// NetworkPolicies, Endpoints.
func kindPlural(kind string) string {
	lower := strings.ToLower(kind)
	if strings.HasSuffix(lower, "endpoints") {
		return kind
	}
	return kind[:len(kind)-1] + regularPlural(lower)[len(lower)-1:]
}

// article is "a Deployment", "an Ingress".
func article(kind string) string {
	if kind != "" && strings.ContainsRune("AEIOU", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// andList is "get", "list and watch".
func andList(verbs []string) string {
	switch len(verbs) {
	case 0:
		return ""
	case 1:
		return verbs[0]
	}
	return strings.Join(verbs[:len(verbs)-1], ", ") + " and " + verbs[len(verbs)-1]
}

// coreStyle is how the package's markers write the core group: `""` when
// one of them writes it so, else core, as kubebuilder scaffolds.
func (c *checker) coreStyle() string {
	for _, m := range c.own {
		if bytes.Contains([]byte(m.comment.Text), []byte(`groups=""`)) {
			return `""`
		}
	}
	return "core"
}

// markerLine is the marker that grants verbs on res/sub.
func markerLine(res resource, sub string, verbs []string, core string) string {
	group := res.group
	if group == "" {
		group = core
	}
	r := res.plural
	if sub != "" {
		r += "/" + sub
	}
	vs := slices.Clone(verbs)
	sortVerbs(vs)
	return fmt.Sprintf("// +kubebuilder:rbac:groups=%s,resources=%s,verbs=%s", group, r, strings.Join(vs, ";"))
}
