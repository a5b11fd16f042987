// Package statusupdate defines an Analyzer that reports status changes sent
// with a main-resource write, and spec changes sent only with a status
// write: for a resource with a status subresource, the API server drops
// both without an error.
//
// # Analyzer statusupdate
//
// statusupdate: report status changes sent with Update or Patch, and spec changes sent only with UpdateStatus, which the API server silently drops
//
// A resource with a status subresource splits every write in two. An
// Update, Patch or Apply of the resource itself resets .status to the
// stored value (the registry strategy's PrepareForUpdate: `newPod.Status =
// oldPod.Status`); an UpdateStatus, a Patch of the "status" subresource or
// an ApplyStatus resets .spec, and for custom resources and the newer
// built-in kinds the labels, annotations, finalizers and owner references
// as well. Neither is an error: the call succeeds, returns the object as
// stored, and the change is simply gone. A controller that sets a condition
// and sends it with Update never shows it; one that adds a finalizer and
// sends it with Status().Update never gets to run its cleanup, and the
// object is deleted without it.
//
// Which resources have a status subresource: the built-in kinds whose REST
// storage has one in kubernetes v1.37 (Pod, ReplicationController, Service,
// Node, Namespace, PersistentVolume, PersistentVolumeClaim, ResourceQuota,
// Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob,
// HorizontalPodAutoscaler, PodDisruptionBudget, Ingress, ServiceCIDR (whose
// Update resets status since v1.36), CertificateSigningRequest,
// PodCertificateRequest, FlowSchema, PriorityLevelConfiguration,
// ValidatingAdmissionPolicy, StorageVersion, ResourceClaim,
// DeviceTaintRule, ResourcePoolStatusRequest, PodGroup, CompositePodGroup,
// VolumeAttachment, CSINode, StorageVersionMigration, Eviction,
// EvictionRequest, CustomResourceDefinition, APIService), and custom types
// marked +kubebuilder:subresource:status.
//
// Within each function (closures included), the analyzer follows an object
// from the stores into its parts — o.Status.X = ..., appends and index
// stores, meta.SetStatusCondition(&o.Status.Conditions, ...), o.Spec.X =
// ..., labels, annotations, finalizers and owner references (the setters
// of ctrllint's one table of them: SetLabels, SetFinalizers and their kin,
// also called through client.Object or metav1.Object;
// metav1.SetMetaDataLabel; controllerutil.AddFinalizer, RemoveFinalizer,
// SetControllerReference, SetOwnerReference and their Remove
// counterparts), the With* methods of an apply configuration — to the
// calls that send it: a typed client's Update, UpdateStatus, Patch (to the
// "status" subresource or not; the objects the patch bytes are computed
// from), Apply and ApplyStatus, and controller-runtime's Update, Patch,
// Status().Update, Status().Patch and SubResource("status"), and controllerutil's
// CreateOrUpdate, whose mutate function's status changes are discarded
// (CreateOrPatch patches the status too). Package helpers count where
// they are called: setReady(o) stores what it stores, c.updateStatus(o)
// sends what it sends. It reports:
//
//   - a send to the main resource (Update, Patch, Apply) reached by a
//     status store of the object, when no status write of that kind of
//     object follows the store on any path: the status change is dropped;
//   - a send to the status subresource reached by a spec store (or a
//     metadata store that kind's status strategy resets) of the object,
//     when no main-resource write or Create of that kind of object follows
//     the store: the spec change is dropped.
//
// # Wrong
//
//	meta.SetStatusCondition(&app.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Deployed"})
//	if err := r.Update(ctx, app); err != nil { // the condition never reaches the API server
//		return ctrl.Result{}, err
//	}
//
//	controllerutil.AddFinalizer(app, "example.com/cleanup")
//	app.Status.Phase = "Provisioning"
//	err := r.Status().Update(ctx, app) // the finalizer is dropped: deletion skips the cleanup
//
// # Right
//
//	meta.SetStatusCondition(&app.Status.Conditions, ready)
//	if err := r.Status().Update(ctx, app); err != nil {
//		return ctrl.Result{}, err
//	}
//
//	if controllerutil.AddFinalizer(app, "example.com/cleanup") {
//		if err := r.Update(ctx, app); err != nil {
//			return ctrl.Result{}, err
//		}
//	}
//
// # Fix
//
// Send status with the status subresource (UpdateStatus, ApplyStatus,
// Patch(..., "status"), Status().Update, Status().Patch) and everything
// else with the main resource; a function that changes both sends both.
// Controller-runtime's Update and Patch decode the response into the
// object, which resets the in-memory status to the stored one: write
// status after a main-resource write, not before it. `ctrllint -fix`
// rewrites a main-resource send of an object whose only change in the
// function is its status: Update becomes UpdateStatus, r.Update(ctx, o)
// becomes r.Status().Update(ctx, o) (without options, whose types differ),
// r.Patch(ctx, o, p) becomes r.Status().Patch(ctx, o, p), and a typed
// Patch gets the "status" subresource.
//
// # Suppress
//
//	// The fake clientset of this integration test keeps status on Update.
//	_, err = c.client.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{}) //ctrllint:ignore statusupdate fake client keeps status
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - resources without a status subresource (ConfigMap, Secret,
//     NetworkPolicy, ...), where Update writes everything, and objects of
//     unknown kind: interfaces, unstructured objects, custom types without
//     the +kubebuilder:subresource:status marker;
//   - writes of both parts in either order (Update then UpdateStatus, or
//     UpdateStatus then Update) — of the same kind of object, on a path
//     after the store, or in a defer. A call that takes the object and
//     whose name starts with a write verb (update, patch, apply, create,
//     sync, write, save, persist) counts as a status write when the name
//     speaks of status (c.updateStatus(o), PatchPodStatus), else as a main
//     write: its sends may be out of sight (a REST client, an interface,
//     another package);
//   - Create: the created object's status is out of scope;
//   - metadata changes sent with a status write of a kind whose status
//     strategy keeps them (Service, Node, Job, ...: only Pod owner
//     references, Deployment labels and all metadata of the newer kinds and
//     custom resources are reset);
//   - a store that reaches the send only through the object's definition
//     (the next iteration of a loop over objects); clearing the whole status
//     (o.Status = T{}) or restoring another object's (o.Status =
//     cur.Status) before a main write; a field set only after checking it
//     is unset (if o.Spec.X == nil { o.Spec.X = &d }): defaulting in memory
//     to compute with, not a change to write (HPA's scale-down
//     stabilization window);
//   - the dynamic client and unstructured objects; stores through
//     functions of other packages other than the known setters
//     (cluster-api's conditions.Set, knative's MarkReady); _test.go files,
//     whose fake clients keep status on Update.
package statusupdate

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
