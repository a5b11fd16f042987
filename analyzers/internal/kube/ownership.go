package kube

import (
	"bufio"
	"bytes"
	"go/types"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Packages of the ownership API.
const (
	MetaV1Pkg          = "k8s.io/apimachinery/pkg/apis/meta/v1"
	ControllerUtilPkg  = "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	apiextensionsPkgs  = "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/"
	apiregistrationPkg = "k8s.io/kube-aggregator/pkg/apis/apiregistration/"
)

// clusterScoped lists the cluster-scoped kinds of the built-in API groups,
// by group directory under k8s.io/api (every version), and of the
// extension API servers' groups.
var clusterScoped = map[string]map[string]bool{
	"core":                  {"Namespace": true, "Node": true, "PersistentVolume": true, "ComponentStatus": true},
	"rbac":                  {"ClusterRole": true, "ClusterRoleBinding": true},
	"storage":               {"StorageClass": true, "CSIDriver": true, "CSINode": true, "VolumeAttachment": true, "VolumeAttributesClass": true},
	"admissionregistration": {"ValidatingWebhookConfiguration": true, "MutatingWebhookConfiguration": true, "ValidatingAdmissionPolicy": true, "ValidatingAdmissionPolicyBinding": true, "MutatingAdmissionPolicy": true, "MutatingAdmissionPolicyBinding": true},
	"scheduling":            {"PriorityClass": true},
	"node":                  {"RuntimeClass": true},
	"certificates":          {"CertificateSigningRequest": true, "ClusterTrustBundle": true},
	"flowcontrol":           {"FlowSchema": true, "PriorityLevelConfiguration": true},
	"networking":            {"IngressClass": true, "IPAddress": true, "ServiceCIDR": true},
	"resource":              {"DeviceClass": true, "ResourceSlice": true, "DeviceTaintRule": true},
	"apiserverinternal":     {"StorageVersion": true},
	"storagemigration":      {"StorageVersionMigration": true},
	"policy":                {"PodSecurityPolicy": true},
	"apiextensions":         {"CustomResourceDefinition": true},
	"apiregistration":       {"APIService": true},
}

// Scope says whether objects of a type live in a namespace.
type Scope int

const (
	ScopeUnknown Scope = iota
	Namespaced
	ClusterScoped
)

// ScopeOf returns the scope of an API object type (or a pointer to one):
// from the table above for the built-in groups, from kubebuilder's
// +kubebuilder:resource:scope marker for custom types (a root object
// without the marker is namespaced), and unknown otherwise (interfaces,
// unstructured objects).
func ScopeOf(t types.Type, src *Source) Scope {
	n := Named(t)
	if n == nil || n.Obj().Pkg() == nil {
		return ScopeUnknown
	}
	path, kind := n.Obj().Pkg().Path(), n.Obj().Name()
	if group := BuiltinGroup(path); group != "" {
		if !hasObjectMeta(n) {
			return ScopeUnknown // a list, a spec, an options type
		}
		if clusterScoped[group][kind] {
			return ClusterScoped
		}
		return Namespaced
	}
	return markerScope(n.Obj(), src)
}

func hasObjectMeta(n *types.Named) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Embedded() && Is(f.Type(), MetaV1Pkg, "ObjectMeta") {
			return true
		}
	}
	return false
}

// BuiltinGroup is the API group of a package of built-in API types
// (k8s.io/api/apps/v1 → "apps", apiextensions, apiregistration), or "".
func BuiltinGroup(path string) string {
	switch {
	case strings.HasPrefix(path, "k8s.io/api/"):
		return strings.Split(strings.TrimPrefix(path, "k8s.io/api/"), "/")[0]
	case strings.HasPrefix(path, apiextensionsPkgs):
		return "apiextensions"
	case strings.HasPrefix(path, apiregistrationPkg):
		return "apiregistration"
	}
	return ""
}

// markerScope reads the kubebuilder markers above a type's declaration.
// The declaration may be in another package, known only from export data,
// so the comment is read from the source file the position names.
func markerScope(obj *types.TypeName, src *Source) Scope {
	root := false
	for _, line := range src.typeComments(obj) {
		switch {
		case strings.Contains(line, "+kubebuilder:resource:") && strings.Contains(line, "scope=Cluster"):
			return ClusterScoped
		case strings.Contains(line, "+kubebuilder:resource:") && strings.Contains(line, "scope=Namespaced"):
			return Namespaced
		case strings.Contains(line, "+kubebuilder:object:root=true") || strings.Contains(line, "+genclient"):
			root = true
		case strings.Contains(line, "+genclient:nonNamespaced"):
			return ClusterScoped
		}
	}
	if root {
		return Namespaced // kubebuilder's default scope
	}
	return ScopeUnknown
}

// Source reads the comments above type declarations (kubebuilder's
// markers) for one pass. A type the analysed package declares is read
// through pass.ReadFile, the file the pass parsed. A dependency's type is
// known only from export data, whose positions name the dependency's
// source file, which the pass may not read (go vet and the checker allow
// only the package's own files): that file is read from disk, as the go
// command just compiled it. Files are remembered only for the life of the
// Source, which must not outlive its pass: the editor server analyses
// edited files again in the same process, and an older copy of a file would
// put the markers on the wrong lines.
type Source struct {
	pass  *analysis.Pass
	lines map[string][]string
}

// NewSource returns a Source for pass.
func NewSource(pass *analysis.Pass) *Source {
	return &Source{pass: pass, lines: make(map[string][]string)}
}

// typeComments returns the comment lines right above a type's declaration
// (its doc comment and markers, "//" removed and trimmed), nearest first.
// Markers may stand above a blank line before the doc comment, as
// kubebuilder scaffolds them.
func (src *Source) typeComments(obj *types.TypeName) []string {
	if src == nil || src.pass == nil || src.pass.Fset == nil || !obj.Pos().IsValid() {
		return nil
	}
	tf := src.pass.Fset.File(obj.Pos())
	if tf == nil {
		return nil
	}
	// The file and line as recorded, not as //line directives say: the
	// lines are read from that file.
	pos := tf.PositionFor(obj.Pos(), false)
	lines := src.fileLines(pos.Filename)
	if pos.Line < 1 || pos.Line > len(lines) {
		return nil
	}
	var out []string
	for i := pos.Line - 2; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(line, "//") {
			if line == "" && i > 0 && strings.HasPrefix(strings.TrimSpace(lines[i-1]), "//") {
				continue // a blank line between markers and the doc comment
			}
			break
		}
		out = append(out, strings.TrimSpace(strings.TrimPrefix(line, "//")))
	}
	return out
}

// TypeComments returns the comment lines right above a type's declaration
// (see typeComments): its markers, nearest first.
func (src *Source) TypeComments(obj *types.TypeName) []string {
	return src.typeComments(obj)
}

// HasMarker reports whether the comments right above a type's declaration
// (see typeComments) hold the marker.
func (src *Source) HasMarker(obj *types.TypeName, marker string) bool {
	return slices.Contains(src.typeComments(obj), marker)
}

// fileLines reads a source file once per Source.
func (src *Source) fileLines(name string) []string {
	if l, ok := src.lines[name]; ok {
		return l
	}
	var data []byte
	var err error
	if src.pass.ReadFile != nil {
		data, err = src.pass.ReadFile(name)
	}
	if src.pass.ReadFile == nil || err != nil {
		data, err = os.ReadFile(name)
	}
	var lines []string
	if err == nil {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1024*1024), 16*1024*1024)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
	}
	src.lines[name] = lines
	return lines
}

// IsObjectType reports whether t (or *t) is a Kubernetes object: a struct
// that embeds metav1.ObjectMeta.
func IsObjectType(t types.Type) bool {
	n := Named(t)
	return n != nil && hasObjectMeta(n)
}

// OwnerFunc describes a function that sets an owner reference.
type OwnerFunc struct {
	Controller bool // sets a controller reference
	ReturnsErr bool // controller-runtime's setters return an error
}

// OwnerFuncOf recognises metav1.NewControllerRef and controller-runtime's
// controllerutil.SetControllerReference and SetOwnerReference.
func OwnerFuncOf(fn *types.Func) (OwnerFunc, bool) {
	switch {
	case IsFunc(fn, MetaV1Pkg, "NewControllerRef"):
		return OwnerFunc{Controller: true}, true
	case IsFunc(fn, ControllerUtilPkg, "SetControllerReference"):
		return OwnerFunc{Controller: true, ReturnsErr: true}, true
	case IsFunc(fn, ControllerUtilPkg, "SetOwnerReference"):
		return OwnerFunc{ReturnsErr: true}, true
	}
	return OwnerFunc{}, false
}

// IsClaimCheck reports whether fn inspects or arbitrates who controls an
// object: metav1.GetControllerOf, GetControllerOfNoCopy, IsControlledBy,
// controllerutil.HasControllerReference and HasOwnerReference, and the
// methods of kubernetes' controller-ref managers (ClaimPods and friends).
func IsClaimCheck(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch {
	case IsFunc(fn, MetaV1Pkg, "GetControllerOf"), IsFunc(fn, MetaV1Pkg, "GetControllerOfNoCopy"), IsFunc(fn, MetaV1Pkg, "IsControlledBy"),
		IsFunc(fn, ControllerUtilPkg, "HasControllerReference"), IsFunc(fn, ControllerUtilPkg, "HasOwnerReference"):
		return true
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	_, recv := PathName(sig.Recv().Type())
	return strings.HasSuffix(recv, "ControllerRefManager")
}
