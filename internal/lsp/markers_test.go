package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

const markersTypes = `package owners

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Widget is namespaced (kubebuilder's default scope).
//
// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
}

// INSERT
// WidgetClass is a custom resource.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
type WidgetClass struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
}

func (w *Widget) DeepCopyObject() runtime.Object {
	c := *w
	w.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

func (w *WidgetClass) DeepCopyObject() runtime.Object {
	c := *w
	w.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}
`

const markersReconcile = `package owners

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

func Own(w *Widget, scheme *runtime.Scheme) error {
	class := &WidgetClass{ObjectMeta: metav1.ObjectMeta{Name: w.Namespace + "-" + w.Name}}
	return controllerutil.SetControllerReference(w, class, scheme)
}
`

// The server analyses edited files again in the same process: what
// sharedowner reads of kubebuilder's markers must come from the files as
// they are now. Lines inserted above the markers move them; changing the
// scope marker changes the finding.
func TestMarkerEdits(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "src", "current")
	mod := t.TempDir()
	dir := filepath.Join(mod, "owners")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"types.go": markersTypes, "reconcile.go": markersReconcile} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	s := start(t, testOptions())
	c := s.client
	s.initialize(t, mod)
	types := s.open(t, filepath.Join(dir, "types.go"))
	reconcile := s.open(t, filepath.Join(dir, "reconcile.go"))
	const want = "cluster-scoped WidgetClass gets an owner reference to namespaced Widget"
	findings := func() []string {
		var out []string
		for _, d := range c.diags[reconcile] {
			out = append(out, string(d.Message.(protocol.String)))
		}
		return out
	}
	check := func(what string, wantFinding bool) {
		t.Helper()
		c.mu.Lock()
		got := findings()
		c.mu.Unlock()
		if wantFinding != (len(got) == 1 && strings.Contains(got[0], want)) || !wantFinding && len(got) != 0 {
			t.Errorf("%s: diagnostics of reconcile.go %q; want the finding: %v", what, got, wantFinding)
		}
	}
	c.await(t, "the first diagnostics of reconcile.go", func() bool { return c.published[reconcile] > 0 })
	check("before any edit", true)

	for _, edit := range []struct {
		what, text  string
		wantFinding bool
	}{
		{"lines inserted above the markers", strings.Replace(markersTypes, "// INSERT\n", "// INSERT\n\nconst (\n\tA = 1\n\tB = 2\n\tC = 3\n)\n\n", 1), true},
		{"the scope marker changed", strings.Replace(markersTypes, "scope=Cluster", "scope=Namespaced", 1), false},
		{"the scope marker changed back", markersTypes, true},
	} {
		c.mu.Lock()
		n := c.published[reconcile]
		c.mu.Unlock()
		s.save(t, types, edit.text)
		c.await(t, "diagnostics after "+edit.what, func() bool { return c.published[reconcile] > n })
		check(edit.what, edit.wantFinding)
	}
	s.stop(t, true, 0)
}
