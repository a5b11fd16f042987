// Package kube is what ctrllint knows about the client-go, apimachinery and
// controller-runtime APIs, so that no analyzer re-derives it.
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
