// Package kube is what ctrllint knows about the client-go, apimachinery and
// controller-runtime APIs that two or more analyzers need, so that none
// re-derives it: the package paths, and how to recognise clients, listers,
// informers, work queues, API objects and their scopes, ownership and the
// informer stores.
//
// Knowledge that only one analyzer uses lives in that analyzer's package
// (tombstone's event handlers, cachesync's waits and late informer requests,
// statusupdate's status subresources, the library calls that only
// describe a value (tombstone's isInert), requeueerr's Reconcile results and
// error functions, cachemutation's object setters, clientperreconcile's
// client builders): when a second analyzer needs it, it moves here.
// patches.go is the exception on its way: patchbase's patch constructors
// and senders, and the object setters (ChangedArg) that cachemutation and
// statusupdate each still list in their own terms.
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
