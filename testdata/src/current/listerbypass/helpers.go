package listerbypass

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/util/workqueue"

	"example.com/current/listerbypass/nodeutil"
)

// Reads made through a sync helper of another package of the module, which
// the controller hands its clientset (kubernetes' node lifecycle
// controller and pkg/controller/util/node before issue 77733; the node
// feature discovery master and its apihelper, PR 2509). The helper's
// package is analysed first and says what each helper reads; the call is
// judged like a read written here.

// NodeSyncer caches pods, nodes and namespaces.
type NodeSyncer struct {
	client     kubernetes.Interface
	clientset  *kubernetes.Clientset
	podLister  corelisters.PodLister
	nodeLister corelisters.NodeLister
	nsLister   corelisters.NamespaceLister
	namespaces *nodeutil.Reader
	queue      workqueue.TypedRateLimitingInterface[string]
}

func newNodeSyncer(ctx context.Context, client kubernetes.Interface, pods corelisters.PodLister) (*NodeSyncer, error) {
	c := &NodeSyncer{client: client, podLister: pods, namespaces: &nodeutil.Reader{Client: client}}
	// Start-up code: a live read before the informers run. Silent.
	if _, err := nodeutil.GetPodsOnNode(ctx, client, "bootstrap"); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *NodeSyncer) processNextWorkItem(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.syncNode(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *NodeSyncer) syncNode(ctx context.Context, name string) error {
	pods, err := nodeutil.GetPodsOnNode(ctx, c.client, name) // want `clientset List of Pod in nodeutil.GetPodsOnNode \(nodeutil.go:\d+\) goes to the API server on every sync, though the controller caches Pod: read through c.podLister`
	if err != nil {
		return err
	}
	if len(pods) == 0 {
		return nil
	}
	node, err := nodeutil.Helpers{}.GetNode(c.clientset, name) // want `clientset Get of Node in nodeutil.Helpers.GetNode \(nodeutil.go:\d+\) goes to the API server on every sync, though the controller caches Node: read through c.nodeLister`
	if err != nil || node.Spec.Unschedulable {
		return err
	}
	// The helper's List only feeds its deletes, and MarkPodsNotReady's its
	// status updates: deliberate inside the helper, silent.
	if _, err := nodeutil.DeletePods(ctx, c.client, name); err != nil {
		return err
	}
	if err := nodeutil.MarkPodsNotReady(ctx, c.client, name); err != nil {
		return err
	}
	if _, err := c.cachedPods(name); err != nil {
		return err
	}
	if _, err := c.podsOrLive(ctx, name); err != nil {
		return err
	}
	return c.labelNamespace(ctx, name)
}

// cachedPods reads through a helper that reads through the lister: silent.
func (c *NodeSyncer) cachedPods(node string) (int, error) {
	pods, err := nodeutil.PodsFromLister(c.podLister, node)
	return len(pods), err
}

// labelNamespace reads the namespace through a helper and writes what it
// returned: read-modify-write across the call, silent.
func (c *NodeSyncer) labelNamespace(ctx context.Context, name string) error {
	ns, err := c.namespaces.Namespace(ctx, name)
	if err != nil {
		return err
	}
	ns = ns.DeepCopy()
	ns.Labels = map[string]string{"synced": "true"}
	_, err = c.client.CoreV1().Namespaces().Update(ctx, ns, metav1.UpdateOptions{})
	return err
}

// podsOrLive reads its pod cache first and asks the API server through the
// helper only on a miss (kubernetes' pvcprotection: askInformer, then
// askAPIServer): a double-check, silent.
func (c *NodeSyncer) podsOrLive(ctx context.Context, node string) (int, error) {
	pods, err := nodeutil.PodsFromLister(c.podLister, node)
	if err == nil && len(pods) > 0 {
		return len(pods), nil
	}
	live, err := nodeutil.GetPodsOnNode(ctx, c.client, node)
	return len(live), err
}
