package rbacmarkers

import (
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// associationSrc has an rbac marker in each place the collector of
// controller-tools (pkg/markers/collect.go) treats differently; each
// marker's resource says whether controller-gen reads it (read*) or not
// (unread*). The expectations were checked against controller-tools
// v0.23.0's collector itself, run on this file.
const associationSrc = `// +kubebuilder:rbac:groups=a,resources=readbeforefile,verbs=get

// Package x is x.
// +kubebuilder:rbac:groups=a,resources=readpkgdoc,verbs=get
package x

// +kubebuilder:rbac:groups=a,resources=readbeforeimport,verbs=get

import "fmt"

// +kubebuilder:rbac:groups=a,resources=readloose,verbs=get

// +kubebuilder:rbac:groups=a,resources=readloose2,verbs=get

// Doc of F.
// +kubebuilder:rbac:groups=a,resources=unreadfuncdoc,verbs=get
func F() {
	// +kubebuilder:rbac:groups=a,resources=unreadbody,verbs=get
	fmt.Println()

	// +kubebuilder:rbac:groups=a,resources=unreadbeforelocalvar,verbs=get

	var x int
	_ = x
}

// +kubebuilder:rbac:groups=a,resources=readbeforetype,verbs=get

// T is a type.
// +kubebuilder:rbac:groups=a,resources=unreadtypedoc,verbs=get
type T struct {
	// +kubebuilder:rbac:groups=a,resources=unreadfield,verbs=get
	A int // +kubebuilder:rbac:groups=a,resources=unreadtrailing,verbs=get
}

// +kubebuilder:rbac:groups=a,resources=unreadvardoc,verbs=get
var (
	// +kubebuilder:rbac:groups=a,resources=unreadinvarblock,verbs=get
	v = 1
)

type (
	// +kubebuilder:rbac:groups=a,resources=readintypeblock,verbs=get

	U int
	// +kubebuilder:rbac:groups=a,resources=unreadintypeblockdoc,verbs=get
	W int
)

// +kubebuilder:rbac:groups=a,resources=readbeforemethod,verbs=get

// Reconcile reconciles.
func (t *T) Reconcile() {}

// +kubebuilder:rbac:groups=a,resources=unreadmethoddoc,verbs=get
func (t *T) G() {}

// +kubebuilder:rbac:groups=a,resources=readend,verbs=get
`

func TestAssociation(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", associationSrc, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	ms := fileMarkers(f, false)
	if len(ms) != 19 {
		t.Fatalf("%d markers, want 19", len(ms))
	}
	for _, m := range ms {
		if !m.parsed || len(m.rule.resources) != 1 {
			t.Fatalf("%s: not parsed", m.comment.Text)
		}
		res := m.rule.resources[0]
		if want := strings.HasPrefix(res, "read"); m.read != want {
			t.Errorf("%s: read %v, want %v (where %q)", res, m.read, want, m.where)
		}
	}
	byRes := map[string]*marker{}
	for _, m := range ms {
		byRes[m.rule.resources[0]] = m
	}
	for res, where := range map[string]string{
		"unreadfuncdoc":   "the doc comment of func F",
		"unreadmethoddoc": "the doc comment of method T.G",
		"unreadbody":      "the body of func F",
		"unreadtypedoc":   "the doc comment of type T",
		"unreadvardoc":    "the doc comment of a var declaration",
		"unreadfield":     "the comment of a field or parameter",
		"unreadtrailing":  "an end-of-line comment",
	} {
		if got := byRes[res].where; got != where {
			t.Errorf("%s: where %q, want %q", res, got, where)
		}
	}
	// Only the doc comments of top-level declarations can be fixed by a
	// blank line or a move.
	for res, doc := range map[string]bool{"unreadfuncdoc": true, "unreadmethoddoc": true, "unreadtypedoc": true, "unreadvardoc": true, "unreadbody": false, "unreadintypeblockdoc": false} {
		if got := byRes[res].doc != nil; got != doc {
			t.Errorf("%s: fixable doc %v, want %v", res, got, doc)
		}
	}
	// In a _test.go file nothing is read.
	for _, m := range fileMarkers(f, true) {
		if m.read {
			t.Errorf("%s read in a _test.go file", m.rule.resources[0])
		}
	}
}

func TestParseRule(t *testing.T) {
	for _, tc := range []struct {
		marker string
		ok     bool
		want   rule
	}{
		{"+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch", true,
			rule{groups: []string{"apps"}, resources: []string{"deployments"}, verbs: []string{"get", "list", "watch"}}},
		{`+kubebuilder:rbac:groups="",resources=pods;pods/status,verbs=get`, true,
			rule{groups: []string{""}, resources: []string{"pods", "pods/status"}, verbs: []string{"get"}}},
		{"+kubebuilder:rbac:groups=core,resources=secrets,verbs=*", true,
			rule{groups: []string{""}, resources: []string{"secrets"}, verbs: []string{"*"}}},
		{"+kubebuilder:rbac:groups={apps,batch},resources={jobs, deployments},verbs={get,list}", true,
			rule{groups: []string{"apps", "batch"}, resources: []string{"jobs", "deployments"}, verbs: []string{"get", "list"}}},
		{"+kubebuilder:rbac:verbs=get,groups=cert-manager.io,resources=certificates,namespace=system", true,
			rule{groups: []string{"cert-manager.io"}, resources: []string{"certificates"}, verbs: []string{"get"}, namespace: "system"}},
		{"+kubebuilder:rbac:groups=apiextensions.k8s.io,resources=customresourcedefinitions,verbs=update,resourceNames=a.x.io;b.x.io", true,
			rule{groups: []string{"apiextensions.k8s.io"}, resources: []string{"customresourcedefinitions"}, verbs: []string{"update"}, resourceNames: []string{"a.x.io", "b.x.io"}}},
		{"+kubebuilder:rbac:urls=/metrics,verbs=get", true, rule{urls: []string{"/metrics"}, verbs: []string{"get"}}},
		{"+kubebuilder:rbac:groups=apps,resources=deployments", false, rule{}},          // no verbs
		{"+kubebuilder:rbac:groups=apps,resource=deployments,verbs=get", false, rule{}}, // unknown argument
		{"+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get extra", true, rule{ // bare text runs to the next separator
			groups: []string{"apps"}, resources: []string{"deployments"}, verbs: []string{"get extra"}}},
		{"+kubebuilder:rbac", false, rule{}},
	} {
		got, ok := parseRule(tc.marker)
		if ok != tc.ok {
			t.Errorf("%s: ok %v, want %v", tc.marker, ok, tc.ok)
			continue
		}
		if ok && !sameRule(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.marker, got, tc.want)
		}
	}
	for text, want := range map[string]bool{
		"// +kubebuilder:rbac:groups=apps,resources=x,verbs=get":    true,
		"//+kubebuilder:rbac:groups=apps,resources=x,verbs=get":     true,
		"// kubebuilder:rbac:groups=apps,resources=x,verbs=get":     false,
		"/* +kubebuilder:rbac:groups=apps,resources=x,verbs=get */": false,
		"// +kubebuilder:rbacs:groups=apps,verbs=get":               false,
		"// +kubebuilder:webhook:path=/x,mutating=true":             false,
	} {
		if got := isRBAC(text); got != want {
			t.Errorf("isRBAC(%q) = %v, want %v", text, got, want)
		}
	}
}

func sameRule(a, b rule) bool {
	return slices.Equal(a.groups, b.groups) && slices.Equal(a.resources, b.resources) && slices.Equal(a.resourceNames, b.resourceNames) &&
		slices.Equal(a.verbs, b.verbs) && slices.Equal(a.urls, b.urls) && a.namespace == b.namespace
}

func TestGrants(t *testing.T) {
	deployments := resource{kind: "Deployment", group: "apps", plural: "deployments", exact: true}
	policy := resource{kind: "BackupPolicy", group: "x.io", plural: "backuppolicies"}
	index := resource{kind: "Index", group: "x.io", plural: "indexes"}
	bucketClass := resource{kind: "BucketClass", group: "x.io", plural: "bucketclasses"}
	for _, tc := range []struct {
		marker    string
		res       resource
		sub, verb string
		want      bool
	}{
		{"groups=apps,resources=deployments,verbs=get", deployments, "", "get", true},
		{"groups=apps,resources=deployments,verbs=get", deployments, "", "list", false},
		{"groups=apps,resources=deployments,verbs=*", deployments, "", "delete", true},
		{"groups=*,resources=deployments,verbs=get", deployments, "", "get", true},
		{"groups=apps,resources=*,verbs=update", deployments, "status", "update", true},
		{"groups=apps,resources=*/status,verbs=update", deployments, "status", "update", true},
		{"groups=apps,resources=*/status,verbs=update", deployments, "", "update", false},
		{"groups=apps,resources=deployments,verbs=update", deployments, "status", "update", false},
		{"groups=apps,resources=deployments/status,verbs=update", deployments, "", "update", false},
		{"groups=extensions,resources=deployments,verbs=get", deployments, "", "get", false},
		{"groups=apps,resources=deployment,verbs=get", deployments, "", "get", false}, // a built-in kind has one name
		{"groups=x.io,resources=backuppolicys,verbs=get", policy, "", "get", true},    // a custom kind: any plural form
		{"groups=x.io,resources=indices,verbs=get", index, "", "get", true},
		{"groups=x.io,resources=bucketclaims,verbs=get", bucketClass, "", "get", false},
		{"urls=/metrics,verbs=get", deployments, "", "get", false},
	} {
		r, ok := parseRule("+kubebuilder:rbac:" + tc.marker)
		if !ok {
			t.Fatalf("%s: does not parse", tc.marker)
		}
		if got := r.grants(tc.res, tc.sub, tc.verb); got != tc.want {
			t.Errorf("%s grants %s %s/%s: %v, want %v", tc.marker, tc.verb, tc.res.plural, tc.sub, got, tc.want)
		}
	}
}

func TestPlurals(t *testing.T) {
	for kind, want := range map[string]string{
		"Pod": "pods", "Ingress": "ingresses", "NetworkPolicy": "networkpolicies", "Endpoints": "endpoints", "Gateway": "gatewaies",
	} {
		if got := unsafeGuess(kind); got != want {
			t.Errorf("unsafeGuess(%s) = %s, want %s", kind, got, want)
		}
	}
	for kind, want := range map[string]string{
		"gateway": "gateways", "backuppolicy": "backuppolicies", "status": "statuses", "box": "boxes", "match": "matches", "memcached": "memcacheds",
	} {
		if got := regularPlural(kind); got != want {
			t.Errorf("regularPlural(%s) = %s, want %s", kind, got, want)
		}
	}
}

func TestOldControllerGen(t *testing.T) {
	for _, tc := range []struct {
		goMod, lock string
		want        bool
	}{
		{"module x\n\nrequire sigs.k8s.io/controller-runtime v0.1.12\n", "", true},
		{"module x\n\nrequire (\n\tsigs.k8s.io/controller-tools v0.1.11\n)\n", "", true},
		{"module x\n\nrequire (\n\tsigs.k8s.io/controller-runtime v0.18.5\n\tsigs.k8s.io/controller-tools v0.14.0\n)\n", "", false},
		{"", "[[projects]]\n  name = \"sigs.k8s.io/controller-tools\"\n  version = \"v0.1.9\"\n\n[[projects]]\n  name = \"x\"\n", true},
		{"", "[[projects]]\n  name = \"sigs.k8s.io/controller-tools\"\n  version = \"v0.2.4\"\n\n[[projects]]\n  version = \"v0.1.0\"\n", false},
	} {
		if got := pinsControllerToolsV01([]byte(tc.goMod), []byte(tc.lock)); got != tc.want {
			t.Errorf("%q %q: %v, want %v", tc.goMod, tc.lock, got, tc.want)
		}
	}
}

func TestResourceNamesOption(t *testing.T) {
	r := resourceNames{}
	if err := r.Set("Person.example.com=people, Endpoints=endpoints"); err != nil {
		t.Fatal(err)
	}
	if r["Person.example.com"] != "people" || r["Endpoints"] != "endpoints" || r.String() != "Endpoints=endpoints,Person.example.com=people" {
		t.Errorf("got %v", r)
	}
	for _, bad := range []string{"people", "person.example.com=people", "Person=", "Person=a/b"} {
		if err := r.Set(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestKindPlural(t *testing.T) {
	for kind, want := range map[string]string{"Secret": "Secrets", "Ingress": "Ingresses", "NetworkPolicy": "NetworkPolicies", "Endpoints": "Endpoints", "Gateway": "Gateways"} {
		if got := kindPlural(kind); got != want {
			t.Errorf("kindPlural(%s) = %s, want %s", kind, got, want)
		}
	}
}

func TestNoteSetup(t *testing.T) {
	for src, want := range map[string]bool{
		"mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme})":                                                        false,
		"mgr, err := ctrl.NewManager(cfg, ctrl.Options{Client: client.Options{Cache: &client.CacheOptions{DisableFor: objs}}})": true,
		"mgr, err := ctrl.NewManager(cfg, ctrl.Options{ClientDisableCacheFor: []client.Object{&corev1.Secret{}}})":              true,
		"mgr, err := ctrl.NewManager(cfg, ctrl.Options{NewClient: newUncachedClient})":                                          true,
		"c, err := client.New(cfg, client.Options{})":                                                                           false, // no manager built here
	} {
		c := &checker{pass: &analysis.Pass{Pkg: types.NewPackage("example.com/op/internal/controller", "controller")}}
		c.noteSetup([]byte(src))
		if c.module.bypass != want {
			t.Errorf("%s: bypass %v, want %v", src, c.module.bypass, want)
		}
	}
}

// TestNoteSetupOwnManager: in a module with several managers, those that
// import the analysed package decide whether its reads may bypass the
// cache; the others count only when none does.
func TestNoteSetupOwnManager(t *testing.T) {
	const own = `import "example.com/op/internal/controller"
mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme})`
	const other = `import "example.com/op/internal/other"
mgr, err := ctrl.NewManager(cfg, ctrl.Options{NewClient: newUncachedClient})`
	c := &checker{pass: &analysis.Pass{Pkg: types.NewPackage("example.com/op/internal/controller", "controller")}}
	c.module.done = true
	c.noteSetup([]byte(other))
	if !c.cacheBypassed() {
		t.Errorf("the only manager bypasses the cache, and the package's reads are not told so")
	}
	c.noteSetup([]byte(own))
	if c.cacheBypassed() {
		t.Errorf("the manager that runs the package's reconcilers caches everything, and another command's NewClient still counts")
	}
}
