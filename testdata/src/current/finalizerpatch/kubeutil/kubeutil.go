// Package kubeutil is a module's shared finalizer helpers, which the
// controllers of other packages call. Shaped on kubermatic's
// pkg/kubernetes helper.go (v2.16.5): HasFinalizer, AddFinalizer and
// RemoveFinalizer over metav1.Object, with a string set.
package kubeutil

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

// HasFinalizer reports whether obj has every one of the finalizers.
func HasFinalizer(obj metav1.Object, finalizers ...string) bool {
	return sets.New(obj.GetFinalizers()...).HasAll(finalizers...)
}

// AddFinalizer adds the finalizers to obj, each once, sorted.
func AddFinalizer(obj metav1.Object, finalizers ...string) { // want AddFinalizer:`changesFinalizers\(0\)`
	set := sets.New(obj.GetFinalizers()...)
	set.Insert(finalizers...)
	obj.SetFinalizers(sets.List(set))
}

// RemoveFinalizer removes the finalizer from obj, by way of a helper of
// its own package.
func RemoveFinalizer(obj metav1.Object, finalizer string) { // want RemoveFinalizer:`changesFinalizers\(0\)`
	setFinalizers(obj, slices.DeleteFunc(slices.Clone(obj.GetFinalizers()), func(f string) bool { return f == finalizer }))
}

func setFinalizers(obj metav1.Object, finalizers []string) {
	obj.SetFinalizers(finalizers)
}

// Finalizers returns a copy of obj's finalizers: it changes nothing.
func Finalizers(obj metav1.Object) []string {
	return slices.Clone(obj.GetFinalizers())
}
