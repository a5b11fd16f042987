// Package nodestatus holds periodic passes that list through the
// clientset and then write what they listed: a write of a listed object
// needs no fresher copy than the cache's, so the List is no deliberate
// fresh read.
package nodestatus

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// nodeController is k8s.io/cloud-provider's cloud node controller up to
// v0.26 (controllers/node/node_controller.go): Run starts UpdateNodeStatus
// with wait.Until, and each pass listed every Node through the clientset
// and updated their addresses, though the controller held a node lister
// (kubernetes PR 115521 switched the List to it in v0.27.0).
type nodeController struct {
	kubeClient  kubernetes.Interface
	nodesLister corelisters.NodeLister
	nodesSynced cache.InformerSynced
}

func newNodeController(client kubernetes.Interface, nodes coreinformers.NodeInformer) *nodeController {
	return &nodeController{kubeClient: client, nodesLister: nodes.Lister(), nodesSynced: nodes.Informer().HasSynced}
}

func (c *nodeController) run(ctx context.Context) {
	if !cache.WaitForCacheSync(ctx.Done(), c.nodesSynced) {
		return
	}
	go wait.UntilWithContext(ctx, c.updateNodeStatus, time.Minute)
	<-ctx.Done()
}

func (c *nodeController) updateNodeStatus(ctx context.Context) {
	nodes, err := c.kubeClient.CoreV1().Nodes().List(ctx, metav1.ListOptions{ResourceVersion: "0"}) // want `clientset List of Node goes to the API server on every sync, though the controller caches Node: read through c\.nodesLister`
	if err != nil {
		return
	}
	for i := range nodes.Items {
		c.updateNodeAddress(ctx, &nodes.Items[i])
	}
}

func (c *nodeController) updateNodeAddress(ctx context.Context, node *corev1.Node) {
	node.Status.Addresses = append(node.Status.Addresses, corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: "10.0.0.1"})
	_, _ = c.kubeClient.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{})
}

// fixedNodeController is the same pass from v0.27.0: it lists through the
// lister and updates copies. Silent.
type fixedNodeController struct {
	kubeClient  kubernetes.Interface
	nodesLister corelisters.NodeLister
}

func (c *fixedNodeController) updateNodeStatus(ctx context.Context) {
	nodes, err := c.nodesLister.List(labels.Everything())
	if err != nil {
		return
	}
	for _, n := range nodes {
		node := n.DeepCopy()
		node.Status.Addresses = nil
		_, _ = c.kubeClient.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{})
	}
}

func (c *fixedNodeController) run(ctx context.Context) {
	go wait.UntilWithContext(ctx, c.updateNodeStatus, time.Minute)
}

// configEnsurer is shaped on the API Priority and Fairness configuration
// ensurer before v1.24 (pkg/registry/flowcontrol/ensurer): a periodic pass
// lists the ConfigMaps of a namespace through the clientset and deletes
// the ones it no longer wants; nothing caches them (issue 101667: "use a
// lister to avoid making periodic LIST calls").
type configEnsurer struct {
	client kubernetes.Interface
	wanted map[string]bool
}

func (e *configEnsurer) run(ctx context.Context) {
	go wait.UntilWithContext(ctx, e.ensure, time.Minute)
}

func (e *configEnsurer) ensure(ctx context.Context) {
	for _, name := range e.removeCandidates(ctx) {
		_ = e.client.CoreV1().ConfigMaps("flowcontrol").Delete(ctx, name, metav1.DeleteOptions{})
	}
}

func (e *configEnsurer) removeCandidates(ctx context.Context) []string {
	list, err := e.client.CoreV1().ConfigMaps("flowcontrol").List(ctx, metav1.ListOptions{}) // want `clientset List of ConfigMap goes to the API server on every event, and the controller has no informer of ConfigMap`
	if err != nil {
		return nil
	}
	var names []string
	for _, cm := range list.Items {
		if !e.wanted[cm.Name] {
			names = append(names, cm.Name)
		}
	}
	return names
}

// freshUpdate reads one object by name and writes it back: a
// read-modify-write that wants the latest version. Silent.
func (c *nodeController) freshUpdate(ctx context.Context, name string) error {
	node, err := c.kubeClient.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	node.Labels["synced"] = "true"
	_, err = c.kubeClient.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
	return err
}

func (c *nodeController) runFresh(ctx context.Context) {
	go wait.UntilWithContext(ctx, func(ctx context.Context) { _ = c.freshUpdate(ctx, "n1") }, time.Minute)
}
