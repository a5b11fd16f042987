package callerwaits

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
)

// NodeGC deletes the per-node ConfigMaps whose node the lister does not
// return, with no wait: like Controller it never mentions cache sync, so
// its caller is assumed to have waited on the factory before Run (the
// shape of kube-controller-manager's cleaners, which its start-up runs
// after the informers). Silent.
type NodeGC struct {
	client kubernetes.Interface
	nodes  corelisters.NodeLister
}

func (g *NodeGC) Run(ctx context.Context) {
	wait.UntilWithContext(ctx, g.gc, time.Minute)
}

func (g *NodeGC) gc(ctx context.Context) {
	nodes, err := g.nodes.List(labels.Everything())
	if err != nil {
		return
	}
	names := sets.New[string]()
	for _, n := range nodes {
		names.Insert(n.Name)
	}
	cms, err := g.client.CoreV1().ConfigMaps("node-objects").List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	for _, cm := range cms.Items {
		if !names.Has(cm.Labels["node"]) {
			_ = g.client.CoreV1().ConfigMaps(cm.Namespace).Delete(ctx, cm.Name, metav1.DeleteOptions{})
		}
	}
}
