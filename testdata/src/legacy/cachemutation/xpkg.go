package cachemutation

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"example.com/legacy/cachemutation/kubeclient"
	"example.com/legacy/cachemutation/podutil"
)

// CrossController reads and writes through helpers of other packages of
// its module: their summaries reach it as facts.
type CrossController struct {
	client      kubernetes.Interface
	rsLister    appslisters.ReplicaSetLister
	nodeIndexer cache.Indexer
	nodeLister  corelisters.NodeLister
	claims      kubeclient.ClaimGetter
	fresh       kubeclient.FreshClaims
}

func (c *CrossController) scaleOwned(ns, uid string) error {
	sets, err := kubeclient.ReplicaSetsForOwner(c.rsLister, ns, uid)
	if err != nil {
		return err
	}
	podutil.Scale(sets, 0) // want `an element of sets from kubeclient\.ReplicaSetsForOwner \(lister\.ReplicaSets\(ns\)\.List\) is modified \(podutil\.Scale\(\.\.\.\), which does rs\.Spec\.Replicas = \.\.\. at podutil/podutil\.go:28\)`
	return nil
}

// The helper copies: silent.
func (c *CrossController) scaleCopies(ns, uid string) ([]string, error) {
	sets, err := kubeclient.ReplicaSetsForOwner(c.rsLister, ns, uid)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, rs := range podutil.ScaleCopies(sets, 0) {
		rs.Labels = nil
		names = append(names, rs.Name)
	}
	return names, nil
}

func (c *CrossController) nodeReady(key string) {
	node, ok := kubeclient.NodeByKey(c.nodeIndexer, key)
	if !ok {
		return
	}
	podutil.SetNodeCondition(&node.Status, corev1.NodeCondition{Type: corev1.NodeReady}) // want `node from kubeclient\.NodeByKey \(indexer\.GetByKey\) is modified \(podutil\.SetNodeCondition\(\.\.\.\), which does status\.Conditions\[\.\.\.\] = \.\.\. at podutil/podutil\.go:16\)`
}

// The caller copies first: silent.
func (c *CrossController) nodeReadyCopied(name string) (*corev1.Node, error) {
	node, err := c.nodeLister.Get(name)
	if err != nil {
		return nil, err
	}
	node = node.DeepCopy()
	podutil.SetNodeCondition(&node.Status, corev1.NodeCondition{Type: corev1.NodeReady})
	return node, nil
}

func (c *CrossController) claimLabels(ctx context.Context, ns, name string) error {
	claim, err := c.claims.GetClaim(ns, name)
	if err != nil {
		return err
	}
	claim.Labels["bound"] = "true" // want `claim from c\.claims\.GetClaim \(g\.claims\.PersistentVolumeClaims\(ns\)\.Get\) is modified \(claim\.Labels\[\.\.\.\] = \.\.\.\)`
	_, err = c.client.CoreV1().PersistentVolumeClaims(ns).Update(ctx, claim, metav1.UpdateOptions{})
	return err
}

// An interface whose implementation builds what it returns: silent.
func (c *CrossController) freshClaim(ns, name string) error {
	claim, err := c.fresh.Claim(ns, name)
	if err != nil {
		return err
	}
	claim.Labels = map[string]string{"bound": "true"}
	return nil
}

// Shaped on kubernetes pkg/controller/job, getPodsForJob: each element
// changed is first replaced by its copy. Silent.
func (c *CrossController) relabelOwned(ns, uid string) ([]*appsv1.ReplicaSet, error) {
	sets, err := kubeclient.ReplicaSetsForOwner(c.rsLister, ns, uid)
	if err != nil {
		return nil, err
	}
	for i := range sets {
		sets[i] = sets[i].DeepCopy()
		sets[i].Labels["owned"] = "true"
	}
	return sets, nil
}
