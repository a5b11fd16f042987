package statusupdate

import (
	"go/types"
	"slices"
	"strings"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// Metadata fields that a status update of some resources resets to the
// stored object's (metav1.ResetObjectMetaForStatus and its hand-written
// equivalents), named as kube's setter table names them.
const (
	metaLabels          = kube.FieldLabels
	metaAnnotations     = kube.FieldAnnotations
	metaFinalizers      = kube.FieldFinalizers
	metaOwnerReferences = kube.FieldOwnerReferences
)

// allMeta is every metadata field a status update can reset.
var allMeta = []string{metaLabels, metaAnnotations, metaFinalizers, metaOwnerReferences}

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
		"Pod": {metaIgnored: []string{metaOwnerReferences}}, "ReplicationController": {}, "Service": {}, "Node": {},
		"PersistentVolume": {}, "PersistentVolumeClaim": {}, "ResourceQuota": {}, "Namespace": {},
	},
	"apps":                  {"Deployment": {metaIgnored: []string{metaLabels}}, "StatefulSet": {}, "DaemonSet": {}, "ReplicaSet": {}},
	"extensions":            {"Deployment": {metaIgnored: []string{metaLabels}}, "DaemonSet": {}, "ReplicaSet": {}, "Ingress": {}},
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

// statusInfo says how the API server treats an object type's status.
type statusInfo struct {
	// Subresource is true when the resource has a status subresource: an
	// Update, Patch or Apply of the main resource ignores .status, and one
	// of the status subresource ignores everything but .status (and, see
	// MetaIgnored, some metadata).
	Subresource bool
	// MetaIgnored lists the metadata fields (metaLabels, ...) that a
	// status update resets to the stored object's.
	MetaIgnored []string
	// Custom is true for a custom resource (a kubebuilder marker said so).
	Custom bool
}

// IgnoresMeta reports whether a status update resets the metadata field.
func (s statusInfo) IgnoresMeta(field string) bool {
	for _, f := range s.MetaIgnored {
		if f == field {
			return true
		}
	}
	return false
}

// statusOf says whether an API object type (or a pointer to one) has a
// status subresource: from the registry table above for the built-in
// groups (also for client-go's apply configurations of those kinds), from
// kubebuilder's +kubebuilder:subresource:status marker for custom types. A
// custom resource's status subresource resets all metadata changes (the
// apiextensions status strategy keeps only .status). Anything else —
// interfaces, unstructured objects, custom types without the marker, kinds
// without a StatusREST — has the zero statusInfo: not known to have one.
func statusOf(t types.Type, src *kube.Source) statusInfo {
	n := kube.Named(t)
	if n == nil || n.Obj().Pkg() == nil {
		return statusInfo{}
	}
	path, kind := n.Obj().Pkg().Path(), n.Obj().Name()
	if strings.HasPrefix(path, kube.ApplyConfigurationsPfx) {
		group := strings.Split(strings.TrimPrefix(path, kube.ApplyConfigurationsPfx), "/")[0]
		if !strings.HasSuffix(kind, "ApplyConfiguration") {
			return statusInfo{}
		}
		kind = strings.TrimSuffix(kind, "ApplyConfiguration")
		if r, ok := statusResources[group][kind]; ok {
			return statusInfo{Subresource: true, MetaIgnored: r.metaIgnored}
		}
		return statusInfo{}
	}
	if group := kube.BuiltinGroup(path); group != "" {
		if !kube.IsObjectType(n) {
			return statusInfo{} // a list, a spec, an options type
		}
		if r, ok := statusResources[group][kind]; ok {
			return statusInfo{Subresource: true, MetaIgnored: r.metaIgnored}
		}
		return statusInfo{}
	}
	if kube.IsObjectType(n) && src.HasMarker(n.Obj(), "+kubebuilder:subresource:status") {
		return statusInfo{Subresource: true, MetaIgnored: allMeta, Custom: true}
	}
	return statusInfo{}
}

// writeKind says what part of an object a client call writes.
type writeKind int

const (
	// mainWrite is an Update, Patch or Apply of the main resource, which
	// ignores .status of a resource with a status subresource.
	mainWrite writeKind = iota + 1
	// statusWrite is an UpdateStatus, ApplyStatus, a Patch of the status
	// subresource, controller-runtime's Status().Update and Patch, or
	// CertificateSigningRequest's approval update (which writes its
	// status conditions).
	statusWrite
	// subresourceWrite is an Update or Patch through controller-runtime's
	// SubResourceWriter: a statusWrite for Status() and
	// SubResource("status"), which only the caller can tell apart.
	subresourceWrite
)

// clientWrite describes a call that sends an object to the API server.
type clientWrite struct {
	Kind   writeKind
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

// clientWriteOf recognises a call of method fn on a receiver of static
// type recv that sends an object to the API server: typed resource
// clients (client-go's and generated clientsets') Update, UpdateStatus,
// Patch, Apply, ApplyStatus and UpdateApproval; controller-runtime's
// client Update, Patch and Apply, and its SubResourceWriter's (Status(),
// SubResource(name)) Update, Patch and Apply. Create is not a write in this
// sense: it is not how a changed object is sent back.
func clientWriteOf(fn *types.Func, recv types.Type) (clientWrite, bool) {
	if fn == nil || recv == nil {
		return clientWrite{}, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return clientWrite{}, false
	}
	name := fn.Name()
	if kube.IsTypedResourceClient(recv) {
		// Indices count the context argument of client-go v0.18 and
		// later; code written before (Update(obj)) has none.
		ctx := 0
		if kube.TakesContext(fn) {
			ctx = 1
		}
		w := clientWrite{Method: name, Typed: true, Served: kube.ObjectOf(recv), Object: ctx, Data: -1, Subresources: -1}
		switch name {
		case "Update":
			w.Kind = mainWrite
		case "UpdateStatus":
			w.Kind = statusWrite
		case "UpdateApproval":
			w.Kind, w.Object = statusWrite, ctx+1 // ([ctx, ]name, csr, opts)
		case "Apply":
			w.Kind, w.Apply = mainWrite, true
		case "ApplyStatus":
			w.Kind, w.Apply = statusWrite, true
		case "Patch":
			// ([ctx, ]name, pt, data, [opts, ]subresources...): the kind
			// depends on the subresources, which only the caller sees.
			// Patch gained its options with the context (v0.18).
			if sig.Params().Len() != 4+2*ctx || !sig.Variadic() {
				return clientWrite{}, false
			}
			w.Kind, w.Object, w.Data, w.Subresources = mainWrite, -1, 2+ctx, 3+2*ctx
		default:
			return clientWrite{}, false
		}
		return w, true
	}
	path, recvName := kube.PathName(sig.Recv().Type())
	if path != kube.CRClientPkg {
		return clientWrite{}, false
	}
	w := clientWrite{Method: name, Object: 1, Data: -1, Subresources: -1}
	switch name {
	case "Update", "Patch":
	case "Apply":
		w.Apply = true
	default:
		return clientWrite{}, false
	}
	switch recvName {
	case "SubResourceWriter", "SubResourceClient", "subResourceClient":
		w.Kind = subresourceWrite
	case "Writer", "Client", "WithWatch", "client":
		w.Kind = mainWrite
	default:
		return clientWrite{}, false
	}
	return w, true
}

// isStatusSubresourceClient reports whether fn is controller-runtime's
// Status(), which returns the writer of the status subresource.
func isStatusSubresourceClient(fn *types.Func) bool {
	return isCRClientMethod(fn, "Status")
}

// isSubresourceClient reports whether fn is controller-runtime's
// SubResource(name), whose name argument says which subresource.
func isSubresourceClient(fn *types.Func) bool {
	return isCRClientMethod(fn, "SubResource")
}

func isCRClientMethod(fn *types.Func, name string) bool {
	if fn == nil || fn.Name() != name || fn.Pkg() == nil || fn.Pkg().Path() != kube.CRClientPkg {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() != nil
}

// statusConditionFunc reports whether fn changes the conditions slice its
// first argument points to (kube.SetterOf's FieldConditions):
// apimachinery's meta.SetStatusCondition and meta.RemoveStatusCondition
// (the helpers kubebuilder scaffolds use on &obj.Status.Conditions).
func statusConditionFunc(fn *types.Func) bool {
	s, ok := kube.SetterOf(fn)
	return ok && s.Field == kube.FieldConditions && s.Arg == 0
}

// metaSetter says which metadata field a function or method call sets on
// which argument.
type metaSetter struct {
	Field string // metaLabels, metaAnnotations, metaFinalizers, metaOwnerReferences
	// Arg is the index of the changed object among the call's arguments,
	// counting a method's receiver as argument 0 (also for a call through
	// an interface, whose receiver SSA keeps apart).
	Arg int
}

// metaSetterOf recognises the calls of kube's setter table (kube.SetterOf)
// that change a metadata field a status update can reset (allMeta): the
// labels, annotations, finalizers or owner references. Among them
// ObjectMeta's and metav1.Object's SetLabels, SetAnnotations,
// SetFinalizers and SetOwnerReferences (promoted to every object type, or
// called through client.Object), metav1.SetMetaDataLabel and
// SetMetaDataAnnotation, and controller-runtime's
// controllerutil.AddFinalizer, RemoveFinalizer, SetControllerReference,
// SetOwnerReference, RemoveOwnerReference and RemoveControllerReference.
func metaSetterOf(fn *types.Func) (metaSetter, bool) {
	s, ok := kube.SetterOf(fn)
	if !ok || !slices.Contains(allMeta, s.Field) {
		return metaSetter{}, false
	}
	return metaSetter{Field: s.Field, Arg: s.Arg}, true
}

// mutateWrite describes controller-runtime's controllerutil.CreateOrUpdate
// and CreateOrPatch: they run a mutate function on an object, then create
// or write it.
type mutateWrite struct {
	Object, Mutate int // argument indices of the object and the MutateFn
	// Status is true for CreateOrPatch, which also patches the status
	// subresource; CreateOrUpdate writes the main resource only ("changes
	// made by MutateFn to any sub-resource (status...), will be discarded").
	Status bool
}

// mutateWriteOf recognises controllerutil.CreateOrUpdate and CreateOrPatch.
func mutateWriteOf(fn *types.Func) (mutateWrite, bool) {
	switch {
	case kube.IsFunc(fn, kube.ControllerUtilPkg, "CreateOrUpdate"):
		return mutateWrite{Object: 2, Mutate: 3}, true
	case kube.IsFunc(fn, kube.ControllerUtilPkg, "CreateOrPatch"):
		return mutateWrite{Object: 2, Mutate: 3, Status: true}, true
	}
	return mutateWrite{}, false
}
