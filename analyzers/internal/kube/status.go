package kube

import (
	"go/types"
	"slices"
	"strings"
)

// applyConfigPfx is where client-go's apply configurations live, one
// package per group and version, like k8s.io/api.
const applyConfigPfx = "k8s.io/client-go/applyconfigurations/"

// Metadata fields that a status update of some resources resets to the
// stored object's (metav1.ResetObjectMetaForStatus and its hand-written
// equivalents).
const (
	MetaLabels          = "Labels"
	MetaAnnotations     = "Annotations"
	MetaFinalizers      = "Finalizers"
	MetaOwnerReferences = "OwnerReferences"
)

// allMeta is every metadata field a status update can reset.
var allMeta = []string{MetaLabels, MetaAnnotations, MetaFinalizers, MetaOwnerReferences}

// statusResource is what the API server's registry does with one kind's
// status subresource: its main-resource strategy (PrepareForUpdate) copies
// the stored status over the incoming one, and its status strategy copies
// the stored spec — and, for some kinds, the metadata fields listed here.
type statusResource struct {
	metaIgnored []string
}

// statusResources lists the kinds whose REST storage has a StatusREST, by
// group directory under k8s.io/api (every version), as registered by
// kubernetes v1.37 (pkg/registry/*/rest: storage[resource+"/status"]), and
// those of the extension API servers. For each, the metadata fields its
// status strategy resets:
//
//   - all of them where the strategy calls metav1.ResetObjectMetaForStatus
//     or copies the stored ObjectMeta (the newer kinds, FlowSchema,
//     PriorityLevelConfiguration, APIService);
//   - Deployment's resets its labels, Pod's its owner references;
//   - the older kinds (Service, Node, Job, ...) keep metadata changes made
//     through a status update, and so does CustomResourceDefinition (its
//     strategy resets the new object's metadata to itself).
//
// NetworkPolicy, MutatingAdmissionPolicy and Workload have no status
// subresource. The extensions group is no longer served; its Deployment,
// DaemonSet, ReplicaSet and Ingress had the same storage as their apps and
// networking successors.
var statusResources = map[string]map[string]statusResource{
	"core": {
		"Pod": {metaIgnored: []string{MetaOwnerReferences}}, "ReplicationController": {}, "Service": {}, "Node": {},
		"PersistentVolume": {}, "PersistentVolumeClaim": {}, "ResourceQuota": {}, "Namespace": {},
	},
	"apps":                  {"Deployment": {metaIgnored: []string{MetaLabels}}, "StatefulSet": {}, "DaemonSet": {}, "ReplicaSet": {}},
	"extensions":            {"Deployment": {metaIgnored: []string{MetaLabels}}, "DaemonSet": {}, "ReplicaSet": {}, "Ingress": {}},
	"autoscaling":           {"HorizontalPodAutoscaler": {}},
	"batch":                 {"Job": {}, "CronJob": {}},
	"policy":                {"PodDisruptionBudget": {}},
	"networking":            {"Ingress": {}, "ServiceCIDR": {metaIgnored: allMeta}},
	"certificates":          {"CertificateSigningRequest": {}, "PodCertificateRequest": {metaIgnored: allMeta}},
	"flowcontrol":           {"FlowSchema": {metaIgnored: allMeta}, "PriorityLevelConfiguration": {metaIgnored: allMeta}},
	"admissionregistration": {"ValidatingAdmissionPolicy": {metaIgnored: allMeta}},
	"apiserverinternal":     {"StorageVersion": {metaIgnored: allMeta}},
	"resource":              {"ResourceClaim": {metaIgnored: allMeta}, "DeviceTaintRule": {metaIgnored: allMeta}, "ResourcePoolStatusRequest": {metaIgnored: allMeta}},
	"scheduling":            {"PodGroup": {metaIgnored: allMeta}, "CompositePodGroup": {metaIgnored: allMeta}},
	"storage":               {"VolumeAttachment": {metaIgnored: allMeta}, "CSINode": {metaIgnored: allMeta}},
	"storagemigration":      {"StorageVersionMigration": {metaIgnored: allMeta}},
	"lifecycle":             {"Eviction": {metaIgnored: allMeta}, "EvictionRequest": {metaIgnored: allMeta}},
	"apiextensions":         {"CustomResourceDefinition": {}},
	"apiregistration":       {"APIService": {metaIgnored: allMeta}},
}

// Status says how the API server treats an object type's status.
type Status struct {
	// Subresource is true when the resource has a status subresource: an
	// Update, Patch or Apply of the main resource ignores .status, and one
	// of the status subresource ignores everything but .status (and, see
	// MetaIgnored, some metadata).
	Subresource bool
	// MetaIgnored lists the metadata fields (MetaLabels, ...) that a
	// status update resets to the stored object's.
	MetaIgnored []string
	// Custom is true for a custom resource (a kubebuilder marker said so).
	Custom bool
}

// IgnoresMeta reports whether a status update resets the metadata field.
func (s Status) IgnoresMeta(field string) bool {
	for _, f := range s.MetaIgnored {
		if f == field {
			return true
		}
	}
	return false
}

// StatusOf says whether an API object type (or a pointer to one) has a
// status subresource: from the registry table above for the built-in
// groups (also for client-go's apply configurations of those kinds), from
// kubebuilder's +kubebuilder:subresource:status marker for custom types. A
// custom resource's status subresource resets all metadata changes (the
// apiextensions status strategy keeps only .status). Anything else —
// interfaces, unstructured objects, custom types without the marker, kinds
// without a StatusREST — has the zero Status: not known to have one.
func StatusOf(t types.Type, src *Source) Status {
	n := Named(t)
	if n == nil || n.Obj().Pkg() == nil {
		return Status{}
	}
	path, kind := n.Obj().Pkg().Path(), n.Obj().Name()
	if strings.HasPrefix(path, applyConfigPfx) {
		group := strings.Split(strings.TrimPrefix(path, applyConfigPfx), "/")[0]
		if !strings.HasSuffix(kind, "ApplyConfiguration") {
			return Status{}
		}
		kind = strings.TrimSuffix(kind, "ApplyConfiguration")
		if r, ok := statusResources[group][kind]; ok {
			return Status{Subresource: true, MetaIgnored: r.metaIgnored}
		}
		return Status{}
	}
	if group := builtinGroup(path); group != "" {
		if !hasObjectMeta(n) {
			return Status{} // a list, a spec, an options type
		}
		if r, ok := statusResources[group][kind]; ok {
			return Status{Subresource: true, MetaIgnored: r.metaIgnored}
		}
		return Status{}
	}
	if hasObjectMeta(n) && hasMarker(n.Obj(), src, "+kubebuilder:subresource:status") {
		return Status{Subresource: true, MetaIgnored: allMeta, Custom: true}
	}
	return Status{}
}

// hasMarker reports whether the comments right above a type's declaration
// (typeComments) hold the marker.
func hasMarker(obj *types.TypeName, src *Source, marker string) bool {
	return slices.Contains(src.typeComments(obj), marker)
}

// WriteKind says what part of an object a client call writes.
type WriteKind int

const (
	// MainWrite is an Update, Patch or Apply of the main resource, which
	// ignores .status of a resource with a status subresource.
	MainWrite WriteKind = iota + 1
	// StatusWrite is an UpdateStatus, ApplyStatus, a Patch of the status
	// subresource, controller-runtime's Status().Update and Patch, or
	// CertificateSigningRequest's approval update (which writes its
	// status conditions).
	StatusWrite
	// SubresourceWrite is an Update or Patch through controller-runtime's
	// SubResourceWriter: a StatusWrite for Status() and
	// SubResource("status"), which only the caller can tell apart.
	SubresourceWrite
)

// ClientWrite describes a call that sends an object to the API server.
type ClientWrite struct {
	Kind   WriteKind
	Method string // Update, UpdateStatus, Patch, Apply, ...
	// Object is the index (among the call's arguments, without the
	// receiver) of the object or apply configuration sent; -1 for a typed
	// client's Patch, which sends bytes.
	Object int
	// Data and Subresources are, for a typed client's Patch, the indices
	// of the patch bytes and of the variadic subresource names.
	Data, Subresources int
	// Apply is true for Apply and ApplyStatus, which send an apply
	// configuration rather than an object.
	Apply bool
	// Typed is true for a typed clientset's resource client, false for
	// controller-runtime's client.
	Typed bool
	// Served is the object type a typed client serves (nil for
	// controller-runtime, whose object argument says it).
	Served types.Type
}

// ClientWriteOf recognises a call of method fn on a receiver of static
// type recv that sends an object to the API server: typed resource
// clients (client-go's and generated clientsets') Update, UpdateStatus,
// Patch, Apply, ApplyStatus and UpdateApproval; controller-runtime's
// client Update, Patch and Apply, and its SubResourceWriter's (Status(),
// SubResource(name)) Update, Patch and Apply. Create is not a write in this
// sense: it is not how a changed object is sent back.
func ClientWriteOf(fn *types.Func, recv types.Type) (ClientWrite, bool) {
	if fn == nil || recv == nil {
		return ClientWrite{}, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return ClientWrite{}, false
	}
	name := fn.Name()
	if IsTypedResourceClient(recv) {
		w := ClientWrite{Method: name, Typed: true, Served: ObjectOf(recv), Object: 1, Data: -1, Subresources: -1}
		switch name {
		case "Update":
			w.Kind = MainWrite
		case "UpdateStatus":
			w.Kind = StatusWrite
		case "UpdateApproval":
			w.Kind, w.Object = StatusWrite, 2 // (ctx, name, csr, opts)
		case "Apply":
			w.Kind, w.Apply = MainWrite, true
		case "ApplyStatus":
			w.Kind, w.Apply = StatusWrite, true
		case "Patch":
			// (ctx, name, pt, data, opts, subresources...): the kind
			// depends on the subresources, which only the caller sees.
			if sig.Params().Len() != 6 || !sig.Variadic() {
				return ClientWrite{}, false
			}
			w.Kind, w.Object, w.Data, w.Subresources = MainWrite, -1, 3, 5
		default:
			return ClientWrite{}, false
		}
		return w, true
	}
	path, recvName := PathName(sig.Recv().Type())
	if path != CRClientPkg {
		return ClientWrite{}, false
	}
	w := ClientWrite{Method: name, Object: 1, Data: -1, Subresources: -1}
	switch name {
	case "Update", "Patch":
	case "Apply":
		w.Apply = true
	default:
		return ClientWrite{}, false
	}
	switch recvName {
	case "SubResourceWriter", "SubResourceClient", "subResourceClient":
		w.Kind = SubresourceWrite
	case "Writer", "Client", "WithWatch", "client":
		w.Kind = MainWrite
	default:
		return ClientWrite{}, false
	}
	return w, true
}

// IsStatusSubresourceClient reports whether fn is controller-runtime's
// Status(), which returns the writer of the status subresource.
func IsStatusSubresourceClient(fn *types.Func) bool {
	return isCRClientMethod(fn, "Status")
}

// IsSubresourceClient reports whether fn is controller-runtime's
// SubResource(name), whose name argument says which subresource.
func IsSubresourceClient(fn *types.Func) bool {
	return isCRClientMethod(fn, "SubResource")
}

func isCRClientMethod(fn *types.Func, name string) bool {
	if fn == nil || fn.Name() != name || fn.Pkg() == nil || fn.Pkg().Path() != CRClientPkg {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() != nil
}

// StatusConditionFunc reports whether fn changes the conditions slice its
// first argument points to: apimachinery's meta.SetStatusCondition and
// meta.RemoveStatusCondition (the helpers kubebuilder scaffolds use on
// &obj.Status.Conditions).
func StatusConditionFunc(fn *types.Func) bool {
	return IsFunc(fn, MetaPkg, "SetStatusCondition") || IsFunc(fn, MetaPkg, "RemoveStatusCondition")
}

// MetaSetter says which metadata field a function or method call sets on
// which argument.
type MetaSetter struct {
	Field string // MetaLabels, MetaAnnotations, MetaFinalizers, MetaOwnerReferences
	// Arg is the index of the changed object among the call's arguments,
	// counting a method's receiver as argument 0.
	Arg int
}

// MetaSetterOf recognises calls that change an object's labels,
// annotations, finalizers or owner references: ObjectMeta's SetLabels,
// SetAnnotations, SetFinalizers and SetOwnerReferences (promoted to every
// object type), metav1.SetMetaDataLabel and SetMetaDataAnnotation, and
// controller-runtime's controllerutil.AddFinalizer, RemoveFinalizer,
// SetControllerReference, SetOwnerReference and RemoveOwnerReference.
func MetaSetterOf(fn *types.Func) (MetaSetter, bool) {
	if fn == nil || fn.Pkg() == nil {
		return MetaSetter{}, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return MetaSetter{}, false
	}
	if sig.Recv() != nil {
		if !Is(sig.Recv().Type(), MetaV1Pkg, "ObjectMeta") {
			return MetaSetter{}, false
		}
		switch fn.Name() {
		case "SetLabels":
			return MetaSetter{MetaLabels, 0}, true
		case "SetAnnotations":
			return MetaSetter{MetaAnnotations, 0}, true
		case "SetFinalizers":
			return MetaSetter{MetaFinalizers, 0}, true
		case "SetOwnerReferences":
			return MetaSetter{MetaOwnerReferences, 0}, true
		}
		return MetaSetter{}, false
	}
	switch {
	case IsFunc(fn, MetaV1Pkg, "SetMetaDataLabel"):
		return MetaSetter{MetaLabels, 0}, true
	case IsFunc(fn, MetaV1Pkg, "SetMetaDataAnnotation"):
		return MetaSetter{MetaAnnotations, 0}, true
	case IsFunc(fn, ControllerUtilPkg, "AddFinalizer"), IsFunc(fn, ControllerUtilPkg, "RemoveFinalizer"):
		return MetaSetter{MetaFinalizers, 0}, true
	case IsFunc(fn, ControllerUtilPkg, "SetControllerReference"), IsFunc(fn, ControllerUtilPkg, "SetOwnerReference"),
		IsFunc(fn, ControllerUtilPkg, "RemoveOwnerReference"):
		return MetaSetter{MetaOwnerReferences, 1}, true // (owner, object, scheme, ...)
	}
	return MetaSetter{}, false
}

// MutateWrite describes controller-runtime's controllerutil.CreateOrUpdate
// and CreateOrPatch: they run a mutate function on an object, then create
// or write it.
type MutateWrite struct {
	Object, Mutate int // argument indices of the object and the MutateFn
	// Status is true for CreateOrPatch, which also patches the status
	// subresource; CreateOrUpdate writes the main resource only ("changes
	// made by MutateFn to any sub-resource (status...), will be discarded").
	Status bool
}

// MutateWriteOf recognises controllerutil.CreateOrUpdate and CreateOrPatch.
func MutateWriteOf(fn *types.Func) (MutateWrite, bool) {
	switch {
	case IsFunc(fn, ControllerUtilPkg, "CreateOrUpdate"):
		return MutateWrite{Object: 2, Mutate: 3}, true
	case IsFunc(fn, ControllerUtilPkg, "CreateOrPatch"):
		return MutateWrite{Object: 2, Mutate: 3, Status: true}, true
	}
	return MutateWrite{}, false
}
