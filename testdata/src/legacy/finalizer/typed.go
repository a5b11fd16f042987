package finalizer

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"
)

const bucketFinalizer = "example.com/bucket"

// Buckets is the object store a ConfigMap describes a bucket of.
type Buckets interface {
	DeleteBucket(ctx context.Context, name string) error
}

// BucketController is a client-go controller in sample-controller's shape
// whose sync removes its finalizer the way kubernetes' PV controller does
// (removeDeletionProtectionFinalizer: SetFinalizers(slice.RemoveString(...)),
// here the store form) after a cleanup whose error is discarded, as
// kdop-operator's reconciler does (_ = r.deleteExternalResources(...)).
type BucketController struct {
	client  kubernetes.Interface
	lister  corelisters.ConfigMapLister
	buckets Buckets
}

func (c *BucketController) syncHandler(ctx context.Context, key string) error {
	cm, err := c.lister.ConfigMaps("buckets").Get(key)
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	if cm.DeletionTimestamp != nil {
		c.buckets.DeleteBucket(ctx, cm.Name)
		cm.Finalizers = removeString(cm.Finalizers, bucketFinalizer) // want `finalizer removed from the ConfigMap being deleted though the error of DeleteBucket \(line 40\) is ignored`
		_, err := c.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	}
	return nil
}

// syncLogged sends the store's error to utilruntime.HandleError and klog,
// and goes on.
func (c *BucketController) syncLogged(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.GetDeletionTimestamp() != nil {
		if err := c.buckets.DeleteBucket(ctx, cm.Name); err != nil {
			utilruntime.HandleError(fmt.Errorf("deleting bucket %s: %w", cm.Name, err))
			klog.FromContext(ctx).Error(err, "deleting bucket", "bucket", cm.Name)
		}
		cm.SetFinalizers(removeString(cm.GetFinalizers(), bucketFinalizer)) // want `the error of DeleteBucket \(line 52\) is ignored`
		_, err := c.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	}
	return nil
}

// syncAdd falls through from the deletion branch to the add.
func (c *BucketController) syncAdd(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.DeletionTimestamp != nil {
		klog.FromContext(ctx).Info("bucket is being deleted", "bucket", cm.Name)
	}
	if !hasString(cm.Finalizers, bucketFinalizer) {
		cm.Finalizers = append(cm.Finalizers, bucketFinalizer) // want `finalizer added to the ConfigMap on a path where it is being deleted \(DeletionTimestamp checked at line 65\): the API server rejects new finalizers on an object being deleted, so Update fails every time`
		_, err := c.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	}
	return nil
}

// syncStrict is sample-controller's discipline: the error goes back to
// the queue, and the finalizer is added only while nothing is deleted.
// Silent.
func (c *BucketController) syncStrict(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.DeletionTimestamp.IsZero() {
		if !hasString(cm.Finalizers, bucketFinalizer) {
			cm.Finalizers = append(cm.Finalizers, bucketFinalizer)
			_, err := c.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
			return err
		}
		return nil
	}
	if err := c.buckets.DeleteBucket(ctx, cm.Name); err != nil {
		utilruntime.HandleError(err)
		return err
	}
	cm.Finalizers = removeString(cm.Finalizers, bucketFinalizer)
	_, err := c.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// syncCopy removes the finalizer from a copy made after the check: the
// analysis follows the object checked, not its copies. Silent.
func (c *BucketController) syncCopy(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.DeletionTimestamp != nil {
		_ = c.buckets.DeleteBucket(ctx, cm.Name)
		clone := cm.DeepCopy()
		clone.Finalizers = removeString(clone.Finalizers, bucketFinalizer)
		_, err := c.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, clone, metav1.UpdateOptions{})
		return err
	}
	return nil
}

func removeString(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
