// Package kubeclient wraps listers behind functions, methods and
// interfaces of its own, for the cachemutation analyzer's cross-package
// summaries: its callers (../xpkg.go) get cached objects from it.
package kubeclient

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"

	"example.com/current/cachemutation/podutil"
)

// Client is shaped on steadybit extension-kubernetes, client/client.go:
// a package-level client whose methods answer from listers
// (PodByNamespaceAndName, PodsByLabelSelector), used by other packages.
type Client struct {
	kube kubernetes.Interface
	pods corelisters.PodLister
}

// PodByName returns the lister's object itself, nil when it is missing.
func (c *Client) PodByName(ns, name string) *corev1.Pod { // want PodByName:`returnsCached\(0:c\.pods\.Pods\(ns\)\.Get\)`
	item, err := c.pods.Pods(ns).Get(name)
	if err != nil {
		return nil
	}
	return item
}

// RunningPods filters a List result: the elements stay cached objects
// (steadybit's onlyRunningPods).
func (c *Client) RunningPods(ns string) []*corev1.Pod { // want RunningPods:`returnsCached\(0:c\.pods\.Pods\(ns\)\.List\)`
	list, err := c.pods.Pods(ns).List(labels.Everything())
	if err != nil {
		return nil
	}
	running := make([]*corev1.Pod, 0, len(list))
	for _, p := range list {
		if p.Status.Phase == corev1.PodRunning {
			running = append(running, p)
		}
	}
	return running
}

// PodCopy copies before returning: its callers own the result.
func (c *Client) PodCopy(ns, name string) (*corev1.Pod, error) {
	pod, err := c.pods.Pods(ns).Get(name)
	if err != nil {
		return nil, err
	}
	return pod.DeepCopy(), nil
}

// LivePod reads through the clientset: a fresh object.
func (c *Client) LivePod(ctx context.Context, ns, name string) (*corev1.Pod, error) {
	return c.kube.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
}

// Template builds a new object from a cached one: nothing cached is
// returned.
func (c *Client) Template(ns, name string) *corev1.Pod {
	pod, err := c.pods.Pods(ns).Get(name)
	if err != nil {
		return nil
	}
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, GenerateName: pod.Name + "-"}}
}

// GetPod is a function of the package that reads the cache for its
// caller.
func GetPod(lister corelisters.PodLister, ns, name string) (*corev1.Pod, error) { // want GetPod:`returnsCached\(0:lister\.Pods\(ns\)\.Get\)`
	return lister.Pods(ns).Get(name)
}

// MarkAll writes to the pods it is given, through podutil: its summary is
// made with podutil's facts, so it says so.
func MarkAll(pods []*corev1.Pod) { // want MarkAll:`params\(0/1: writes podutil.SetPodLabel\(...\), which does pod.Labels = ... at podutil/podutil.go:\d+; 0/2: writes podutil.SetPodLabel\(...\), which does pod.Labels = ... at podutil/podutil.go:\d+\)`
	for _, p := range pods {
		podutil.SetPodLabel(p, "marked", "true")
	}
}

// ClaimGetter is shaped on kubernetes pkg/controller/statefulset,
// StatefulPodControlObjectManager: an interface whose one implementation
// in the package answers GetClaim from the claim lister
// (realStatefulPodControlObjectManager.GetClaim).
type ClaimGetter interface {
	GetClaim(ns, name string) (*corev1.PersistentVolumeClaim, error) // want GetClaim:`returnsCached\(0:g\.claims\.PersistentVolumeClaims\(ns\)\.Get\)`
}

type listerClaimGetter struct {
	claims corelisters.PersistentVolumeClaimLister
}

func (g *listerClaimGetter) GetClaim(ns, name string) (*corev1.PersistentVolumeClaim, error) { // want GetClaim:`returnsCached\(0:g\.claims\.PersistentVolumeClaims\(ns\)\.Get\)`
	return g.claims.PersistentVolumeClaims(ns).Get(name)
}

// NewClaimGetter returns the lister-backed implementation.
func NewClaimGetter(claims corelisters.PersistentVolumeClaimLister) ClaimGetter {
	return &listerClaimGetter{claims: claims}
}

// PodInfoGetter is shaped on ovn-kubernetes go-controller/pkg/cni,
// PodInfoGetter and (*ClientSet).getPod: the cache first, the API server
// when the pod is not there yet. Either way, a cached object may come
// back.
type PodInfoGetter interface {
	GetPod(ns, name string) (*corev1.Pod, error) // want GetPod:`returnsCached\(0:c\.pods\.Pods\(ns\)\.Get\)`
}

// CachedClient implements PodInfoGetter.
type CachedClient struct {
	kube kubernetes.Interface
	pods corelisters.PodLister
}

func (c CachedClient) GetPod(ns, name string) (*corev1.Pod, error) { // want GetPod:`returnsCached\(0:c\.pods\.Pods\(ns\)\.Get\)`
	pod, err := c.pods.Pods(ns).Get(name)
	if err == nil {
		return pod, nil
	}
	return c.kube.CoreV1().Pods(ns).Get(context.TODO(), name, metav1.GetOptions{})
}

// SecretGetter has two implementations in the package, and only one
// returns cached objects: the interface method gets no summary.
type SecretGetter interface {
	GetSecret(ns, name string) (*corev1.Secret, error)
}

type cachedSecrets struct{ lister corelisters.SecretLister }

func (s cachedSecrets) GetSecret(ns, name string) (*corev1.Secret, error) { // want GetSecret:`returnsCached\(0:s\.lister\.Secrets\(ns\)\.Get\)`
	return s.lister.Secrets(ns).Get(name)
}

// copiedSecrets is shaped on openshift library-go, the fix "cached getters
// return fresh objects to avoid cache mutation" (v1helpers'
// combinedConfigMapInterface.Get returns ret.DeepCopy()).
type copiedSecrets struct{ lister corelisters.SecretLister }

func (s copiedSecrets) GetSecret(ns, name string) (*corev1.Secret, error) {
	secret, err := s.lister.Secrets(ns).Get(name)
	if err != nil {
		return nil, err
	}
	return secret.DeepCopy(), nil
}

// NewSecretGetter picks an implementation.
func NewSecretGetter(lister corelisters.SecretLister, copied bool) SecretGetter {
	if copied {
		return copiedSecrets{lister}
	}
	return cachedSecrets{lister}
}
