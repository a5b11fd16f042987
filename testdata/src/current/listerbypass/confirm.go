package listerbypass

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"example.com/current/listerbypass/patchutil"
)

// Live reads that confirm what the cache cannot, before acting on it
// (shapes from kubernetes v1.37 pkg/controller): silent. And their near
// misses, which are ordinary bypasses: reported.

// nodeGone is podgc's existence probe: only the error is wanted, and it is
// tested for NotFound — a lagging cache would call a new node gone.
func (c *Controller) nodeGone(ctx context.Context, name string) (bool, error) {
	_, err := c.kubeclientset.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return true, nil
	}
	return false, err
}

// evict is the device-taint controller's guard: the live object decides
// whether it is deleted (one replaced under the same name is not).
func (c *Controller) evict(ctx context.Context, ns, name string, uid string) error {
	d, err := c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if string(d.UID) != uid || d.DeletionTimestamp != nil {
		return nil
	}
	return c.kubeclientset.AppsV1().Deployments(ns).Delete(ctx, name, metav1.DeleteOptions{})
}

// provisionOnce is the volume controller's guard through a helper: a
// deployment that exists already is not created again.
func (c *Controller) provisionOnce(ctx context.Context, ns, name string) error {
	existing, err := c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err == nil && existing != nil {
		return nil
	}
	return c.createDeployment(ctx, ns, name)
}

func (c *Controller) createDeployment(ctx context.Context, ns, name string) error {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	_, err := c.kubeclientset.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{})
	return err
}

// pruneStale is the storage-version collector's confirmed absence: a node
// the cache misses is looked up live, and only a failed lookup leads to the
// cleanup write.
func (c *Controller) pruneStale(ctx context.Context, d *appsv1.Deployment, nodes []string) error {
	var keep []string
	for _, n := range nodes {
		node, err := c.kubeclientset.CoreV1().Nodes().Get(ctx, n, metav1.GetOptions{})
		if err != nil || node.Labels["pool"] != d.Name {
			continue
		}
		keep = append(keep, n)
	}
	if len(keep) == len(nodes) {
		return nil
	}
	d = d.DeepCopy()
	d.Annotations["nodes"] = keep[0]
	_, err := c.kubeclientset.AppsV1().Deployments(d.Namespace).Update(ctx, d, metav1.UpdateOptions{})
	return err
}

// Near misses: reported.

// probeNoNotFound wants only the error, but treats every error alike: the
// lister answers the same question.
func (c *Controller) probeNoNotFound(ctx context.Context, name string) error {
	_, err := c.kubeclientset.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{}) // want `clientset Get of Node goes to the API server`
	return err
}

// guardOtherResource branches on the deployment and writes a pod: the
// classic sync that reads its primary object live.
func (c *Controller) guardOtherResource(ctx context.Context, ns, name string) error {
	d, err := c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{}) // want `clientset Get of Deployment goes to the API server`
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if d.Spec.Paused {
		return nil
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-probe"}}
	_, err = c.kubeclientset.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
	return err
}

func (c *Controller) syncConfirm(ctx context.Context, key string) error {
	ns, name, _ := cache.SplitMetaNamespaceKey(key)
	if _, err := c.nodeGone(ctx, name); err != nil {
		return err
	}
	if err := c.evict(ctx, ns, name, ""); err != nil {
		return err
	}
	if err := c.provisionOnce(ctx, ns, name); err != nil {
		return err
	}
	if err := c.pruneStale(ctx, &appsv1.Deployment{}, nil); err != nil {
		return err
	}
	if err := c.probeNoNotFound(ctx, name); err != nil {
		return err
	}
	return c.guardOtherResource(ctx, ns, name)
}

func init() {
	var c Controller
	c.syncHandler = c.syncConfirm
}

// inUse asks the cache first and the API server only when the cache finds
// nothing, in two helpers (kubernetes v1.31's pvcprotection: askInformer,
// then askAPIServer): silent.
func (c *Controller) inUse(ctx context.Context, ns string) (bool, error) {
	if found, err := c.askCache(ns); err == nil && found {
		return true, nil
	}
	return c.askLive(ctx, ns)
}

func (c *Controller) askCache(ns string) (bool, error) {
	ds, err := c.deploymentsLister.Deployments(ns).List(labels.Everything())
	return len(ds) > 0, err
}

func (c *Controller) askLive(ctx context.Context, ns string) (bool, error) {
	list, err := c.kubeclientset.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, err
	}
	return len(list.Items) > 0, nil
}

func init() {
	var c Controller
	c.syncHandler = func(ctx context.Context, key string) error {
		_, err := c.inUse(ctx, key)
		return err
	}
}

// patchThroughHelper reads the latest version and patches it through
// another package's helper that is handed the client (external-snapshotter's
// updateSnapshotContentStatus): read-modify-write, silent.
func (c *Controller) patchThroughHelper(ctx context.Context, ns, name string) error {
	latest, err := c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	clone := latest.DeepCopy()
	_, err = patchutil.PatchStatus(clone, appsv1.DeploymentStatus{ObservedGeneration: clone.Generation}, c.kubeclientset)
	return err
}

// describeThroughHelper hands the read object to another package's helper
// that only reads it: an ordinary bypass, reported.
func (c *Controller) describeThroughHelper(ctx context.Context, ns, name string) (string, error) {
	d, err := c.kubeclientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{}) // want `clientset Get of Deployment goes to the API server`
	if err != nil {
		return "", err
	}
	return patchutil.Describe(d), nil
}

func init() {
	var c Controller
	c.syncHandler = func(ctx context.Context, key string) error {
		if err := c.patchThroughHelper(ctx, "ns", key); err != nil {
			return err
		}
		_, err := c.describeThroughHelper(ctx, "ns", key)
		return err
	}
}
