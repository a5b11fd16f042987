// Package kube is what ctrllint knows about the client-go, apimachinery and
// controller-runtime APIs that two or more analyzers need, so that none
// re-derives it: the package paths, and how to recognise clients, listers,
// informers, work queues, API objects and their scopes, ownership and the
// informer stores.
//
// Knowledge that only one analyzer uses lives in that analyzer's package
// (tombstone's event handlers, cachesync's late informer requests,
// statusupdate's status subresources, requeueerr's Reconcile results and
// error functions, clientperreconcile's client builders): when a second
// analyzer needs it, it moves here: patches.go holds the patch
// constructors and senders patchbase and finalizerpatch share.
//
// A fact that several analyzers need has one table here, with a doc
// comment that says what it holds and who uses it: the object setters
// (setters.go), the logging, reporting and describing calls
// (reporting.go), the informer starts and cache-sync waits (informers.go).
// An analyzer takes what it needs from the table (statusupdate only the
// metadata fields a status update resets): a policy over it, never a
// list of its own. TestNoCopiedTables fails when an analyzer's code
// declares a list of API names that a table here holds.
//
// Everything is recognised by type — package path and object name, through
// aliases, pointers and generic instantiation — never by how the analysed
// code spells a variable. The functions work across client-go versions: the
// untyped handler API that every release has, and the typed informers,
// handlers and cache.DeletedObject[T] that v0.37 added (tests run both).
//
// Nothing here uses analysis facts: facts would force every dependency
// (all of client-go and apimachinery) to be loaded from source.
package kube
