package patchbase

// Shaped on cluster-api's patch helper (sigs.k8s.io/cluster-api@v0.2.3
// util/patch/patch.go NewHelper, which kept ToUnstructured's result as its
// "before"; v0.2.4, commit ea238975bc, deep-copies an Unstructured first)
// and on the later helpers that convert objects without keeping them.

import (
	"context"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Helper patches what changed since it was made.
type Helper struct {
	client client.Client
	before map[string]interface{}
	patch  client.Patch
}

// NewHelper keeps a snapshot that, for an Unstructured, is the object itself.
func NewHelper(resource client.Object, c client.Client) (*Helper, error) {
	before, err := runtime.DefaultUnstructuredConverter.ToUnstructured(resource) // want `the snapshot ToUnstructured returns is kept as a base, but for an \*unstructured.Unstructured it is the object's own map`
	if err != nil {
		return nil, err
	}
	return &Helper{client: c, before: before, patch: client.MergeFrom(resource.DeepCopyObject().(client.Object))}, nil
}

// NewHelperCopied is v0.2.4's: an Unstructured is copied first. Silent.
func NewHelperCopied(resource client.Object, c client.Client) (*Helper, error) {
	if _, ok := resource.(runtime.Unstructured); ok {
		resource = resource.DeepCopyObject().(client.Object)
	}
	before, err := runtime.DefaultUnstructuredConverter.ToUnstructured(resource)
	if err != nil {
		return nil, err
	}
	return &Helper{client: c, before: before, patch: client.MergeFrom(resource.DeepCopyObject().(client.Object))}, nil
}

// Patch compares the object with the snapshot. The converted "after" is
// not kept: silent.
func (h *Helper) Patch(ctx context.Context, resource client.Object) error {
	after, err := runtime.DefaultUnstructuredConverter.ToUnstructured(resource)
	if err != nil {
		return err
	}
	if reflect.DeepEqual(h.before, after) {
		return nil
	}
	return h.client.Patch(ctx, resource, h.patch)
}

// toUnstructured wraps the converted content in an Unstructured: a
// conversion, not a snapshot. Silent.
func toUnstructured(obj client.Object) (*unstructured.Unstructured, error) {
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: content}, nil
}

// typedSnapshot converts a typed object, which the converter copies by
// reflection. Silent.
type typedSnapshot struct{ before map[string]interface{} }

func newTypedSnapshot(h *Helper) (*typedSnapshot, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(h)
	if err != nil {
		return nil, err
	}
	return &typedSnapshot{before: m}, nil
}
