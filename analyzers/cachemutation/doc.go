// Package cachemutation defines an Analyzer that reports writes to objects
// read from an informer cache before they are deep-copied.
//
// # Analyzer cachemutation
//
// cachemutation: report writes to objects from listers, indexers and informer stores made without DeepCopy
//
// A lister, an indexer and an informer's store hand out the objects the
// informer cache holds, not copies: every controller of the process that
// shares the informer reads the very same pointers. Writing to one of them
// changes the cache behind the API server's back: other controllers (and
// the next sync of this one) see labels, finalizers, replicas or status
// that the API server never stored, until the next watch event for the
// object replaces it; a controller that compares the cached object with
// the state it wants finds nothing to do and skips its Update, and an
// update handler that compares old and new objects sees no difference.
// Concurrent readers race with the write (concurrent writes to a map crash the process). client-go's listers
// say "objects returned here must be treated as read-only", and Kubernetes
// runs its controllers in tests with a mutation detector
// (KUBE_CACHE_MUTATION_DETECTOR) that panics on exactly this.
//
// Objects are read from typed listers and namespace listers (Get, List,
// and expansion methods such as GetPodReplicaSets), v0.37's generic
// listers.ResourceIndexer[T], and cache.Store, cache.Indexer and
// cache.TypedIndexer (Get, GetByKey, List, ByIndex, Index, ByTypedIndex),
// including an informer's GetStore() and GetIndexer(), and the dynamic
// informers' dynamiclister (unstructured objects), and the object
// cache.ListAll and cache.ListAllByNamespace hand a callback written in
// the calling function; an untyped result is followed through its type
// assertion, a List result into its elements. The analyzer reports,
// before any DeepCopy, DeepCopyObject or DeepCopyInto of the object:
//
//   - field stores at any depth (d.Spec.Replicas = ...,
//     d.Status.Conditions[i].Status = ...), also through aliases
//     (spec := &d.Spec; spec.Paused = true) and through the slices, maps
//     and pointers of a value copy (s := d.Spec; s.Template.Labels[k] = v);
//   - map writes and deletes in its maps (pod.Labels[k] = v,
//     delete(pod.Annotations, k)) and appends stored back
//     (pod.Finalizers = append(pod.Finalizers, f));
//   - the setters of metav1.Object (SetLabels, SetAnnotations,
//     SetFinalizers, SetOwnerReferences, SetResourceVersion, ...), also
//     through meta.Accessor, and the helpers that write to their argument:
//     metav1.SetMetaDataAnnotation and SetMetaDataLabel,
//     meta.SetStatusCondition and RemoveStatusCondition,
//     controllerutil.AddFinalizer, RemoveFinalizer, SetControllerReference,
//     SetOwnerReference and their Remove counterparts,
//     unstructured.SetNestedField and friends;
//   - passing the object to a function or method that writes to it,
//     however deep the calls go in the package, and objects that a
//     function or method returns from a cache read: in the package, and
//     in the packages of the analysed module its code calls into, by what
//     their functions do, themselves and through the packages they call
//     in turn (their summaries travel as analysis facts, so go vet,
//     golangci-lint and nogo see them too; a chain of helpers across any
//     number of the module's packages is followed). A method called
//     through an interface returns cached objects when the interface's
//     package declares at least one implementation and every one it
//     declares returns them from that result (an interface over a lister,
//     like kubernetes' StatefulPodControlObjectManager.GetClaim).
//
// # Wrong
//
//	pod, err := c.podLister.Pods(ns).Get(name)
//	if err != nil {
//		return err
//	}
//	pod.Labels["synced"] = "true" // changes the informer's Pod
//	_, err = c.client.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
//
// # Right
//
//	pod, err := c.podLister.Pods(ns).Get(name)
//	if err != nil {
//		return err
//	}
//	pod = pod.DeepCopy() // the controller's own copy
//	pod.Labels["synced"] = "true"
//	_, err = c.client.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
//
// # Fix
//
// Deep-copy the object before the first write: obj = obj.DeepCopy() (or
// DeepCopyObject, or DeepCopyInto a value of your own), and write to the
// copy only; send the copy to the API server. For a List result, copy each
// element you change. When only a small part changes, build a patch
// instead of copying the whole object. The suggested fix inserts
// obj = obj.DeepCopy() right after the read when it is assigned to a
// variable (generated DeepCopy methods return nil for nil, so the copy may
// come before the error check).
//
// # Suppress
//
//	pod.Labels[k] = v //ctrllint:ignore cachemutation this indexer is private to the test harness
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - writes after obj = obj.DeepCopy() (also when the copy is made only
//     where obj is not nil) or to a DeepCopyInto target, and objects from
//     clients: a clientset Get or List, and controller-runtime's client
//     (its cache copies objects out);
//   - writes on a branch where the object's resourceVersion is empty
//     (if obj.ResourceVersion == "" or obj.GetResourceVersion() == ""): an
//     informer only holds objects that have one, so there the object is
//     one the code built (a get-or-new helper's new object on NotFound);
//   - writes to a value copy of a struct that stay in the copy
//     (s := d.Spec; s.Paused = true), to the fresh slice a List returns
//     (pods[i] = other, sorting it), and to the other fields of a struct
//     of the controller's own that holds a cached object
//     (ctx := &syncCtx{job: job}; ctx.count++);
//   - what is loaded from a map the function made and into which it
//     stores DeepCopy results: the "copy and mark for update" table of
//     kubernetes' EndpointSlice reconciler (slicesByName[s.Name] = s, then
//     slicesByName[s.Name] = s.DeepCopy() for the slices it changes, and
//     later writes through the names marked for update). Which key holds a
//     copy is not in the types; a write through such a table may miss a
//     cached entry, and a report there could not be trusted;
//   - records of the controller's own kept in a cache.Store (a type
//     assertion to anything but an API object, unstructured.Unstructured
//     or an interface ends the trail);
//   - reads, and passing the object to functions of other modules or
//     through interfaces: they are not assumed to write to it;
//   - appends to a cached slice that are not stored back into the object
//     (they may write past its length, which no reader sees);
//   - objects handed to event handlers (AddFunc, UpdateFunc, ...), and the
//     callbacks of cache.ListAll: they are cached objects too, but the
//     analyzer follows only explicit reads;
//   - objects read through, or passed to, functions of other modules (the
//     dependencies of the analysed module): only the Kubernetes libraries
//     are known, by name; and objects from interface methods whose
//     package declares no implementation, or one that copies or builds
//     what it returns (implementations in other packages are not guessed
//     at).
//   - writes in tests that arrange state in stores no informer feeds: in a
//     function handed a *testing.T (B, F, TB), or a closure of one, that
//     starts no informer (a factory's Start, an informer's Run) and no
//     goroutine, the listers and indexers are the test's stand-in for the
//     API server (kubernetes' statefulset and daemon tests fill an
//     unstarted factory's indexers and edit their objects between steps):
//     no watch replaces the objects and no controller reads them
//     meanwhile. A helper of the test files not handed the test is
//     skipped too when only such tests call it (daemon's markPodsReady).
//     Once the test starts informers or a goroutine, or the write is in a
//     helper that other code calls (or nothing calls), it is checked;
//     writes in the controller's own code are checked wherever it is
//     called from.
//
// Known limitation: a local slice or map counts as holding cached objects
// once any is put in it. An element replaced by its copy right before the
// write (pods[i] = pods[i].DeepCopy(); pods[i].Labels[k] = v) is the copy,
// but with a call or a store to another element in between it is again
// what the slice holds, and the write is reported; copy into a variable
// or a new slice instead.
package cachemutation

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
