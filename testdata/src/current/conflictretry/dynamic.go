package conflictretry

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

var widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

// setPhase reads the object once and retries only its status write, like
// ksonnet before its PR 787 ("Get a new version of the object when
// retrying on conflict").
func setPhase(ctx context.Context, client dynamic.Interface, ns, name, phase string) error {
	u, err := client.Resource(widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := unstructured.SetNestedField(u.Object, phase, "status", "phase"); err != nil {
			return err
		}
		_, err := client.Resource(widgets).Namespace(ns).UpdateStatus(ctx, u, metav1.UpdateOptions{}) // want `retry.RetryOnConflict retries UpdateStatus of u, read by Get at line 19 outside the closure`
		return err
	})
}

// setPhaseFresh is ksonnet's fix: Get inside the retry.
func setPhaseFresh(ctx context.Context, client dynamic.Interface, ns, name, phase string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		u, err := client.Resource(widgets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := unstructured.SetNestedField(u.Object, phase, "status", "phase"); err != nil {
			return err
		}
		_, err = client.Resource(widgets).Namespace(ns).UpdateStatus(ctx, u, metav1.UpdateOptions{})
		return err
	})
}

// setPhaseCopyVersion copies the live resourceVersion into the object it
// sends: not stale.
func setPhaseCopyVersion(ctx context.Context, client dynamic.Interface, u *unstructured.Unstructured) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		live, err := client.Resource(widgets).Namespace(u.GetNamespace()).Get(ctx, u.GetName(), metav1.GetOptions{})
		if err != nil {
			return err
		}
		u.SetResourceVersion(live.GetResourceVersion())
		_, err = client.Resource(widgets).Namespace(u.GetNamespace()).Update(ctx, u, metav1.UpdateOptions{})
		return err
	})
}
