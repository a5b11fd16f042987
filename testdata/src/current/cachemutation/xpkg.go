package cachemutation

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"

	"example.com/current/cachemutation/kubeclient"
	"example.com/current/cachemutation/podutil"
)

// CrossController reads and writes through helpers of other packages of
// its module (kubeclient, podutil): their summaries reach it as facts.
type CrossController struct {
	kube      kubernetes.Interface
	client    *kubeclient.Client
	cached    kubeclient.CachedClient
	podLister corelisters.PodLister
	dLister   appslisters.DeploymentLister
	claims    kubeclient.ClaimGetter
	info      kubeclient.PodInfoGetter
	secrets   kubeclient.SecretGetter
}

// A method of another package that returns the lister's object.
func (c *CrossController) relabel(ns, name string) {
	pod := c.client.PodByName(ns, name)
	if pod == nil {
		return
	}
	pod.Labels["relabelled"] = "true" // want `pod from c\.client\.PodByName \(c\.pods\.Pods\(ns\)\.Get\) is modified \(pod\.Labels\[\.\.\.\] = \.\.\.\)`
}

// A function of another package that reads the cache.
func (c *CrossController) viaFunc(ctx context.Context, ns, name string) error {
	pod, err := kubeclient.GetPod(c.podLister, ns, name)
	if err != nil {
		return err
	}
	pod.Spec.ActiveDeadlineSeconds = nil // want `pod from kubeclient\.GetPod \(lister\.Pods\(ns\)\.Get\) is modified \(pod\.Spec\.ActiveDeadlineSeconds = \.\.\.\)`
	_, err = c.kube.CoreV1().Pods(ns).Update(ctx, pod, metav1.UpdateOptions{})
	return err
}

// The elements of a filtered List result.
func (c *CrossController) annotateRunning(ns string) {
	pods := c.client.RunningPods(ns)
	for _, p := range pods {
		p.Annotations = nil // want `an element of pods from c\.client\.RunningPods \(c\.pods\.Pods\(ns\)\.List\) is modified \(p\.Annotations = \.\.\.\)`
	}
}

// The caller copies what the helper returns: silent.
func (c *CrossController) copyAfter(ns, name string) {
	pod := c.client.PodByName(ns, name)
	if pod == nil {
		return
	}
	pod = pod.DeepCopy()
	pod.Labels["relabelled"] = "true"
}

// Helpers that copy, read through the clientset, or build a new object:
// silent.
func (c *CrossController) ownedResults(ctx context.Context, ns, name string) error {
	copied, err := c.client.PodCopy(ns, name)
	if err != nil {
		return err
	}
	copied.Labels["x"] = "y"
	live, err := c.client.LivePod(ctx, ns, name)
	if err != nil {
		return err
	}
	live.Labels["x"] = "y"
	tmpl := c.client.Template(ns, name)
	tmpl.Labels = map[string]string{"x": "y"}
	return nil
}

// A helper of another package that writes through a pointer to the
// object's status.
func (c *CrossController) notReady(ns, name string) error {
	pod, err := c.podLister.Pods(ns).Get(name)
	if err != nil {
		return err
	}
	cond := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse}
	podutil.UpdatePodCondition(&pod.Status, &cond) // want `pod from c\.podLister\.Pods\(ns\)\.Get is modified \(podutil\.UpdatePodCondition\(\.\.\.\), which does status\.Conditions\[\.\.\.\] = \.\.\. at podutil/podutil\.go:20\)`
	return nil
}

// Shaped on kubernetes' deployment controller, which sets the revision on
// its own copy (dc.getNewReplicaSet: SetDeploymentRevision(d, ...) after
// d.DeepCopy()); here the cached object is passed.
func (c *CrossController) revision(ns, name string) error {
	d, err := c.dLister.Deployments(ns).Get(name)
	if err != nil {
		return err
	}
	if podutil.SetRevision(d, 3) { // want `d from c\.dLister\.Deployments\(ns\)\.Get is modified \(podutil\.SetRevision\(\.\.\.\), which does d\.Annotations = \.\.\. at podutil/podutil\.go:36\)`
		_, err = c.kube.AppsV1().Deployments(ns).Update(context.TODO(), d, metav1.UpdateOptions{})
	}
	return err
}

// The same on the controller's copy: silent.
func (c *CrossController) revisionCopied(ns, name string) (*appsv1.Deployment, error) {
	d, err := c.dLister.Deployments(ns).Get(name)
	if err != nil {
		return nil, err
	}
	d = d.DeepCopy()
	podutil.SetRevision(d, 3)
	return d, nil
}

// Shaped on kubernetes' node lifecycle controller, which hands the pods
// of a node from its lister to nodeutil.MarkPodsNotReady: the helper
// copies each pod (silent); the variant that does not is reported.
func (c *CrossController) nodeDown(node string) error {
	pods, err := c.podLister.List(labels.Everything())
	if err != nil {
		return err
	}
	_ = podutil.MarkPodsNotReady(pods, node)
	podutil.MarkPodsNotReadyInPlace(pods, node) // want `an element of pods from c\.podLister\.List is modified \(podutil\.MarkPodsNotReadyInPlace\(\.\.\.\), which does UpdatePodCondition\(\.\.\.\), which does status\.Conditions\[\.\.\.\] = \.\.\. at podutil/podutil\.go:20\)`
	return nil
}

// A read-only helper, and one that returns a pointer into its argument.
func (c *CrossController) readers(ns string) error {
	pods, err := c.podLister.Pods(ns).List(labels.Everything())
	if err != nil {
		return err
	}
	for _, p := range pods {
		if podutil.IsPodReady(p) {
			continue
		}
		if ref := podutil.ControllerRef(p); ref != nil {
			ref.BlockOwnerDeletion = nil // want `an element of pods from c\.podLister\.Pods\(ns\)\.List is modified \(ref\.BlockOwnerDeletion = \.\.\.\)`
		}
	}
	return nil
}

// A chain of helpers across two packages (MarkAll calls podutil's
// SetPodLabel): kubeclient's summary of MarkAll is made with podutil's
// facts, so the write two packages down is seen (issue 31; it was a known
// limit before facts crossed the whole module).
func (c *CrossController) markAll(ns string) error {
	pods, err := c.podLister.Pods(ns).List(labels.Everything())
	if err != nil {
		return err
	}
	kubeclient.MarkAll(pods) // want `an element of pods from c\.podLister\.Pods\(ns\)\.List is modified \(kubeclient\.MarkAll\(\.\.\.\), which does podutil\.SetPodLabel\(\.\.\.\), which does pod\.Labels = \.\.\. at podutil/podutil\.go:\d+\) without DeepCopy`
	return nil
}

// A fresh object handed to a helper that writes: silent.
func (c *CrossController) fresh(ns string) *corev1.Pod {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns}}
	podutil.SetPodLabel(pod, "app", "x")
	return pod
}

// An interface method of another package, whose one implementation there
// returns the lister's object.
func (c *CrossController) claimOwner(ctx context.Context, ns, name string, owner metav1.OwnerReference) error {
	claim, err := c.claims.GetClaim(ns, name)
	if err != nil {
		return err
	}
	claim.OwnerReferences = append(claim.OwnerReferences, owner) // want `claim from c\.claims\.GetClaim \(g\.claims\.PersistentVolumeClaims\(ns\)\.Get\) is modified \(claim\.OwnerReferences = \.\.\.\)`
	_, err = c.kube.CoreV1().PersistentVolumeClaims(ns).Update(ctx, claim, metav1.UpdateOptions{})
	return err
}

// Shaped on kubernetes pkg/controller/statefulset,
// UpdatePodClaimForRetentionPolicy: "claim = claim.DeepCopy() // Make a
// copy so we don't mutate the shared cache". Silent.
func (c *CrossController) claimOwnerCopied(ctx context.Context, ns, name string, owner metav1.OwnerReference) error {
	claim, err := c.claims.GetClaim(ns, name)
	if err != nil {
		return err
	}
	claim = claim.DeepCopy()
	claim.OwnerReferences = append(claim.OwnerReferences, owner)
	_, err = c.kube.CoreV1().PersistentVolumeClaims(ns).Update(ctx, claim, metav1.UpdateOptions{})
	return err
}

// Through the interface and through the implementation's method.
func (c *CrossController) podInfo(ns, name string) error {
	pod, err := c.info.GetPod(ns, name)
	if err != nil {
		return err
	}
	pod.Annotations["k8s.ovn.org/seen"] = "true" // want `pod from c\.info\.GetPod \(c\.pods\.Pods\(ns\)\.Get\) is modified \(pod\.Annotations\[\.\.\.\] = \.\.\.\)`
	other, err := c.cached.GetPod(ns, name)
	if err != nil {
		return err
	}
	other.Annotations["k8s.ovn.org/seen"] = "true" // want `other from c\.cached\.GetPod \(c\.pods\.Pods\(ns\)\.Get\) is modified \(other\.Annotations\[\.\.\.\] = \.\.\.\)`
	return nil
}

// An interface one of whose implementations copies: silent.
func (c *CrossController) secretData(ns, name string) error {
	secret, err := c.secrets.GetSecret(ns, name)
	if err != nil {
		return err
	}
	secret.Data["checked"] = []byte("true")
	return nil
}

// Shaped on kubernetes pkg/controller/job, getPodsForJob: the pods come
// from a helper of another package (controller.FilterPodsByOwner), and
// each one adopted is replaced by its copy before its finalizers change.
// Silent.
func (c *CrossController) adoptFinalizers(ns, finalizer string) []*corev1.Pod {
	pods := c.client.RunningPods(ns)
	for i, p := range pods {
		if len(p.Finalizers) == 0 {
			pods[i] = p.DeepCopy()
			pods[i].Finalizers = append(p.Finalizers, finalizer)
		}
	}
	return pods
}

// Another element than the one copied is written.
func (c *CrossController) adoptOther(ns, finalizer string) []*corev1.Pod {
	pods := c.client.RunningPods(ns)
	for i, p := range pods {
		if i > 0 {
			pods[i] = p.DeepCopy()
			pods[i-1].Finalizers = append(p.Finalizers, finalizer) // want `an element of pods from c\.client\.RunningPods \(c\.pods\.Pods\(ns\)\.List\) is modified \(pods\[\.\.\.\]\.Finalizers = \.\.\.\)`
		}
	}
	return pods
}
