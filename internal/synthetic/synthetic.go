// Package synthetic writes a package shaped like a controller repository's
// API package with its generated code, for the benchmarks and tests of what
// ctrllint does with generated files: hand-written types and a small
// hand-written controller, beside the deep copies, defaulters and listers
// that controller-gen, defaulter-gen and lister-gen would write for the
// types (each file with its generator's "Code generated ... DO NOT EDIT."
// header). The generated files grow with the number of kinds, some 130
// lines per kind.
package synthetic

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Write writes a module named module into dir (made if missing) holding
// the package in its directory pkg (Files), with the go.mod and go.sum of
// the module in fixture (testdata/src/current, which requires the
// Kubernetes libraries the package imports), renamed. It returns the
// number of lines in the generated files.
func Write(dir, fixture, module, pkg string, kinds int) (generated int, err error) {
	mod, err := os.ReadFile(filepath.Join(fixture, "go.mod"))
	if err != nil {
		return 0, err
	}
	sum, err := os.ReadFile(filepath.Join(fixture, "go.sum"))
	if err != nil {
		return 0, err
	}
	first, rest, _ := strings.Cut(string(mod), "\nmodule ")
	if !strings.HasPrefix(string(mod), "module ") {
		_, rest, _ = strings.Cut(rest, "\n")
		mod = []byte(first + "\nmodule " + module + "\n" + rest)
	} else {
		_, rest, _ = strings.Cut(string(mod), "\n")
		mod = []byte("module " + module + "\n" + rest)
	}
	if err := os.MkdirAll(filepath.Join(dir, pkg), 0o755); err != nil {
		return 0, err
	}
	files := map[string][]byte{"go.mod": mod, "go.sum": sum}
	for name, src := range Files(filepath.Base(pkg), kinds) {
		files[filepath.Join(pkg, name)] = []byte(src)
		if slices.Contains(Generated, name) {
			generated += strings.Count(src, "\n")
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return 0, err
		}
	}
	return generated, nil
}

// Files returns the package's files, by name, for kinds kinds (at least
// one): types.go and controller.go by hand, zz_generated.deepcopy.go,
// zz_generated.defaults.go and zz_generated.listers.go generated.
//
// The controller has exactly one finding, a cachemutation in Sync that
// only the generated code explains: the object the indexer returns is
// handed to the generated defaulter (SetObjectDefaults_Widget0), which
// writes to it. Its other read is deep-copied first, through the generated
// DeepCopy, and its lister (Count) is a generated one.
func Files(pkg string, kinds int) map[string]string {
	if kinds < 1 {
		kinds = 1
	}
	return map[string]string{
		"types.go":                 types(pkg, kinds),
		"controller.go":            fmt.Sprintf(controller, pkg),
		"zz_generated.deepcopy.go": deepcopy(pkg, kinds),
		"zz_generated.defaults.go": defaults(pkg, kinds),
		"zz_generated.listers.go":  listers(pkg, kinds),
	}
}

// Generated are the names of Files' generated files.
var Generated = []string{"zz_generated.deepcopy.go", "zz_generated.defaults.go", "zz_generated.listers.go"}

const controller = `package %s

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
)

// Controller syncs Widget0s.
type Controller struct {
	lister  Widget0Lister
	indexer cache.Indexer
	update  func(context.Context, *Widget0) error
}

// NewController returns a controller reading the indexer.
func NewController(indexer cache.Indexer, update func(context.Context, *Widget0) error) *Controller {
	return &Controller{lister: NewWidget0Lister(indexer), indexer: indexer, update: update}
}

// Sync defaults the named Widget0 and writes it back.
func (c *Controller) Sync(ctx context.Context, namespace, name string) error {
	obj, exists, err := c.indexer.GetByKey(namespace + "/" + name)
	if err != nil || !exists {
		return err
	}
	w := obj.(*Widget0)
	SetObjectDefaults_Widget0(w)
	return c.update(ctx, w)
}

// Count counts the Widget0s of a namespace.
func (c *Controller) Count(namespace string) (int, error) {
	ws, err := c.lister.Widget0s(namespace).List(labels.Everything())
	return len(ws), err
}

// Label labels the named Widget0's copy.
func (c *Controller) Label(ctx context.Context, key string) error {
	obj, exists, err := c.indexer.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	w, ok := obj.(*Widget0)
	if !ok {
		return fmt.Errorf("unexpected %%T", obj)
	}
	w = w.DeepCopy()
	if w.Labels == nil {
		w.Labels = map[string]string{}
	}
	w.Labels["synced"] = "true"
	w.Status.Conditions = append(w.Status.Conditions, metav1.Condition{Type: "Synced", Status: metav1.ConditionTrue, ObservedGeneration: w.Generation})
	return c.update(ctx, w)
}
`

func types(pkg string, kinds int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `package %s

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SchemeGroupVersion is the group and version of the package's kinds.
var SchemeGroupVersion = schema.GroupVersion{Group: "widgets.example.com", Version: "v1"}

// Resource takes an unqualified resource and returns a Group qualified GroupResource.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}
`, pkg)
	for i := range kinds {
		fmt.Fprintf(&b, `
// Widget%[1]d is a kind.
type Widget%[1]d struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`

	Spec   Widget%[1]dSpec   `+"`json:\"spec\"`"+`
	Status Widget%[1]dStatus `+"`json:\"status,omitempty\"`"+`
}

// Widget%[1]dSpec is what a Widget%[1]d wants.
type Widget%[1]dSpec struct {
	Replicas *int32
	Selector *metav1.LabelSelector
	Template corev1.PodTemplateSpec
	Args     []string
	Settings map[string]string
	Ports    []corev1.ContainerPort
	Paused   bool
}

// Widget%[1]dStatus is what a Widget%[1]d has.
type Widget%[1]dStatus struct {
	ObservedGeneration int64
	Replicas           int32
	Conditions         []metav1.Condition
}

// Widget%[1]dList is a list of Widget%[1]d.
type Widget%[1]dList struct {
	metav1.TypeMeta `+"`json:\",inline\"`"+`
	metav1.ListMeta `+"`json:\"metadata,omitempty\"`"+`

	Items []Widget%[1]d
}
`, i)
	}
	return b.String()
}

func deepcopy(pkg string, kinds int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `//go:build !ignore_autogenerated

// Code generated by controller-gen. DO NOT EDIT.

package %s

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtime "k8s.io/apimachinery/pkg/runtime"
)

// keep the imports used whatever the kinds
var _ = corev1.PodTemplateSpec{}
var _ = metav1.LabelSelector{}
var _ runtime.Object
`, pkg)
	for i := range kinds {
		fmt.Fprintf(&b, `
// DeepCopyInto is an autogenerated deepcopy function, copying the receiver, writing into out. in must be non-nil.
func (in *Widget%[1]d) DeepCopyInto(out *Widget%[1]d) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Spec.DeepCopyInto(&out.Spec)
	in.Status.DeepCopyInto(&out.Status)
}

// DeepCopy is an autogenerated deepcopy function, copying the receiver, creating a new Widget%[1]d.
func (in *Widget%[1]d) DeepCopy() *Widget%[1]d {
	if in == nil {
		return nil
	}
	out := new(Widget%[1]d)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject is an autogenerated deepcopy function, copying the receiver, creating a new runtime.Object.
func (in *Widget%[1]d) DeepCopyObject() runtime.Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto is an autogenerated deepcopy function, copying the receiver, writing into out. in must be non-nil.
func (in *Widget%[1]dList) DeepCopyInto(out *Widget%[1]dList) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		in, out := &in.Items, &out.Items
		*out = make([]Widget%[1]d, len(*in))
		for i := range *in {
			(*in)[i].DeepCopyInto(&(*out)[i])
		}
	}
}

// DeepCopy is an autogenerated deepcopy function, copying the receiver, creating a new Widget%[1]dList.
func (in *Widget%[1]dList) DeepCopy() *Widget%[1]dList {
	if in == nil {
		return nil
	}
	out := new(Widget%[1]dList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject is an autogenerated deepcopy function, copying the receiver, creating a new runtime.Object.
func (in *Widget%[1]dList) DeepCopyObject() runtime.Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto is an autogenerated deepcopy function, copying the receiver, writing into out. in must be non-nil.
func (in *Widget%[1]dSpec) DeepCopyInto(out *Widget%[1]dSpec) {
	*out = *in
	if in.Replicas != nil {
		in, out := &in.Replicas, &out.Replicas
		*out = new(int32)
		**out = **in
	}
	if in.Selector != nil {
		in, out := &in.Selector, &out.Selector
		*out = new(metav1.LabelSelector)
		(*in).DeepCopyInto(*out)
	}
	in.Template.DeepCopyInto(&out.Template)
	if in.Args != nil {
		in, out := &in.Args, &out.Args
		*out = make([]string, len(*in))
		copy(*out, *in)
	}
	if in.Settings != nil {
		in, out := &in.Settings, &out.Settings
		*out = make(map[string]string, len(*in))
		for key, val := range *in {
			(*out)[key] = val
		}
	}
	if in.Ports != nil {
		in, out := &in.Ports, &out.Ports
		*out = make([]corev1.ContainerPort, len(*in))
		copy(*out, *in)
	}
}

// DeepCopy is an autogenerated deepcopy function, copying the receiver, creating a new Widget%[1]dSpec.
func (in *Widget%[1]dSpec) DeepCopy() *Widget%[1]dSpec {
	if in == nil {
		return nil
	}
	out := new(Widget%[1]dSpec)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto is an autogenerated deepcopy function, copying the receiver, writing into out. in must be non-nil.
func (in *Widget%[1]dStatus) DeepCopyInto(out *Widget%[1]dStatus) {
	*out = *in
	if in.Conditions != nil {
		in, out := &in.Conditions, &out.Conditions
		*out = make([]metav1.Condition, len(*in))
		for i := range *in {
			(*in)[i].DeepCopyInto(&(*out)[i])
		}
	}
}

// DeepCopy is an autogenerated deepcopy function, copying the receiver, creating a new Widget%[1]dStatus.
func (in *Widget%[1]dStatus) DeepCopy() *Widget%[1]dStatus {
	if in == nil {
		return nil
	}
	out := new(Widget%[1]dStatus)
	in.DeepCopyInto(out)
	return out
}
`, i)
	}
	return b.String()
}

func defaults(pkg string, kinds int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `// Code generated by defaulter-gen. DO NOT EDIT.

package %s

import (
	runtime "k8s.io/apimachinery/pkg/runtime"
)

// RegisterDefaults adds defaulters functions to the given scheme.
// Public to allow building arbitrary schemes.
// All generated defaulters are covering - they call all nested defaulters.
func RegisterDefaults(scheme *runtime.Scheme) error {
`, pkg)
	for i := range kinds {
		fmt.Fprintf(&b, "\tscheme.AddTypeDefaultingFunc(&Widget%[1]d{}, func(obj interface{}) { SetObjectDefaults_Widget%[1]d(obj.(*Widget%[1]d)) })\n", i)
	}
	b.WriteString("\treturn nil\n}\n")
	for i := range kinds {
		fmt.Fprintf(&b, `
// SetObjectDefaults_Widget%[1]d defaults a Widget%[1]d.
func SetObjectDefaults_Widget%[1]d(in *Widget%[1]d) {
	if in.Spec.Replicas == nil {
		var ptrVar1 int32 = 1
		in.Spec.Replicas = &ptrVar1
	}
	for i := range in.Spec.Ports {
		a := &in.Spec.Ports[i]
		if a.Protocol == "" {
			a.Protocol = "TCP"
		}
	}
}
`, i)
	}
	return b.String()
}

func listers(pkg string, kinds int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `// Code generated by lister-gen. DO NOT EDIT.

package %s

import (
	labels "k8s.io/apimachinery/pkg/labels"
	listers "k8s.io/client-go/listers"
	cache "k8s.io/client-go/tools/cache"
)
`, pkg)
	for i := range kinds {
		fmt.Fprintf(&b, `
// Widget%[1]dLister helps list Widget%[1]ds.
// All objects returned here must be treated as read-only.
type Widget%[1]dLister interface {
	// List lists all Widget%[1]ds in the indexer.
	// Objects returned here must be treated as read-only.
	List(selector labels.Selector) (ret []*Widget%[1]d, err error)
	// Widget%[1]ds returns an object that can list and get Widget%[1]ds.
	Widget%[1]ds(namespace string) Widget%[1]dNamespaceLister
}

// widget%[1]dLister implements the Widget%[1]dLister interface.
type widget%[1]dLister struct {
	listers.ResourceIndexer[*Widget%[1]d]
}

// NewWidget%[1]dLister returns a new Widget%[1]dLister.
func NewWidget%[1]dLister(indexer cache.Indexer) Widget%[1]dLister {
	return &widget%[1]dLister{listers.New[*Widget%[1]d](indexer, Resource("widget%[1]d"))}
}

// Widget%[1]ds returns an object that can list and get Widget%[1]ds.
func (s *widget%[1]dLister) Widget%[1]ds(namespace string) Widget%[1]dNamespaceLister {
	return widget%[1]dNamespaceLister{listers.NewNamespaced[*Widget%[1]d](s.ResourceIndexer, namespace)}
}

// Widget%[1]dNamespaceLister helps list and get Widget%[1]ds.
// All objects returned here must be treated as read-only.
type Widget%[1]dNamespaceLister interface {
	// List lists all Widget%[1]ds in the indexer for a given namespace.
	// Objects returned here must be treated as read-only.
	List(selector labels.Selector) (ret []*Widget%[1]d, err error)
	// Get retrieves the Widget%[1]d from the indexer for a given namespace and name.
	// Objects returned here must be treated as read-only.
	Get(name string) (*Widget%[1]d, error)
}

// widget%[1]dNamespaceLister implements the Widget%[1]dNamespaceLister
// interface.
type widget%[1]dNamespaceLister struct {
	listers.ResourceIndexer[*Widget%[1]d]
}
`, i)
	}
	return b.String()
}
