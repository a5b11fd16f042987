package conflictretry

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// createOrUpdate creates the captured object: a Create has no
// resourceVersion precondition.
func createOrUpdate(ctx context.Context, c kubernetes.Interface, cm *corev1.ConfigMap) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := c.CoreV1().ConfigMaps(cm.Namespace).Create(ctx, cm, metav1.CreateOptions{})
		return err
	})
}

// nested writes in a closure the retried one makes: when it runs is not
// followed.
func nested(ctx context.Context, c kubernetes.Interface, cm *corev1.ConfigMap) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		write := func() error {
			_, err := c.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
			return err
		}
		return write()
	})
}

// scaleSubresource writes the scale subresource, whose body carries its
// own resourceVersion.
func scaleSubresource(ctx context.Context, c client.Client, d client.Object, scale client.Object) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return c.SubResource("scale").Update(ctx, d, client.WithSubResourceBody(scale))
	})
}

// handLoop retries by hand: loops are not followed.
func handLoop(ctx context.Context, c kubernetes.Interface, cm *corev1.ConfigMap) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}); err == nil {
			return nil
		}
	}
	return err
}

// wrapped returns another error in place of the write's: the retry sees
// no conflict and stops after the first attempt.
func wrapped(ctx context.Context, c kubernetes.Interface, cm *corev1.ConfigMap) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if _, err := c.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			return errFailed
		}
		return nil
	})
}

var errFailed = context.Canceled

// sharedVariable lets an informer callback swap in newer objects: another
// closure assigns the captured variable, so the retried one may send a
// fresher object than the one read before it.
func sharedVariable(ctx context.Context, c kubernetes.Interface, onUpdate func(func(*corev1.ConfigMap))) error {
	cm, err := c.CoreV1().ConfigMaps("ns").Get(ctx, "cm", metav1.GetOptions{})
	if err != nil {
		return err
	}
	onUpdate(func(newer *corev1.ConfigMap) { cm = newer.DeepCopy() })
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := c.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}
