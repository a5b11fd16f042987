// Package nodelifecycle holds a controller that lists, from an event
// handler and a periodic pass, a resource no informer of its caches: the
// fix is an informer.
package nodelifecycle

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/current/listerbypass/nodeutil"
)

// NodeMonitor is shaped like kubernetes' node lifecycle controller before
// it looked pods up in a pod informer (issue 77733: a LIST of
// "pods?fieldSelector=spec.nodeName=X" for every node that became
// unavailable, from the monitor pass wait.Until runs): it caches nodes.
type NodeMonitor struct {
	kubeClient kubernetes.Interface
	nodeLister corelisters.NodeLister
	queue      workqueue.TypedRateLimitingInterface[string]
}

func NewNodeMonitor(client kubernetes.Interface, nodes coreinformers.NodeInformer) *NodeMonitor {
	nc := &NodeMonitor{kubeClient: client, nodeLister: nodes.Lister()}
	nodes.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(old, cur interface{}) {
			node := cur.(*corev1.Node)
			// An event handler lists on every node update.
			pods, err := client.CoreV1().Pods(metav1.NamespaceAll).List(context.TODO(), metav1.ListOptions{ // want `clientset List of Pod goes to the API server on every event, and the controller has no informer of Pod`
				FieldSelector: fields.OneTermEqualSelector("spec.nodeName", node.Name).String(),
			})
			if err == nil && len(pods.Items) > 0 {
				nc.queue.Add(node.Name)
			}
			if !node.Spec.Unschedulable {
				_ = nc.evictPods(context.TODO(), node.Name)
			}
		},
	})
	return nc
}

func (nc *NodeMonitor) Run(ctx context.Context) {
	go wait.Until(func() { nc.monitorNodeHealth(ctx) }, 5*time.Second, ctx.Done())
	<-ctx.Done()
}

func (nc *NodeMonitor) monitorNodeHealth(ctx context.Context) {
	nodes, err := nc.nodeLister.List(nil)
	if err != nil {
		return
	}
	for _, node := range nodes {
		if _, err := nc.podsOnNode(ctx, node.Name); err != nil {
			return
		}
	}
}

func (nc *NodeMonitor) podsOnNode(ctx context.Context, nodeName string) ([]corev1.Pod, error) {
	pods, err := nc.kubeClient.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{ // want `clientset List of Pod goes to the API server on every event`
		FieldSelector: fields.OneTermEqualSelector("spec.nodeName", nodeName).String(),
	})
	if err != nil {
		return nil, err
	}
	return pods.Items, nil
}

// Deliberate reads stay silent on the per-event path too.

// listThenCreate lists to confirm an object is absent before creating it
// (kubernetes' bootstrap signer and token cleaner look for their
// ConfigMap the same way): a lagging cache would create it twice.
func (nc *NodeMonitor) listThenCreate(ctx context.Context, ns string) error {
	cms, err := nc.kubeClient.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=monitor"})
	if err != nil {
		return err
	}
	if len(cms.Items) == 0 {
		_, err = nc.kubeClient.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{}, metav1.CreateOptions{})
	}
	return err
}

func (nc *NodeMonitor) processNextWorkItem(ctx context.Context) bool {
	key, quit := nc.queue.Get()
	if quit {
		return false
	}
	defer nc.queue.Done(key)
	if err := nc.listThenCreate(ctx, key); err != nil && !apierrors.IsAlreadyExists(err) {
		nc.queue.AddRateLimited(key)
		return true
	}
	nc.queue.Forget(key)
	return true
}

// Resync lists once when asked, from the command's main: not on an event
// path, silent.
func Resync(ctx context.Context, client kubernetes.Interface) (int, error) { // want Resync:`reads\(List Secret at nodelifecycle.go:\d+\)`
	secrets, err := client.CoreV1().Secrets("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	return len(secrets.Items), nil
}

// The same list made through a helper of another package of the module
// (kubernetes' nodeutil before issue 77733): no informer of Pod here, so
// the call is reported like the read it makes. A helper whose List feeds
// its deletes stays silent.
func (nc *NodeMonitor) evictPods(ctx context.Context, nodeName string) error {
	pods, err := nodeutil.GetPodsOnNode(ctx, nc.kubeClient, nodeName) // want `clientset List of Pod in nodeutil.GetPodsOnNode \(nodeutil.go:\d+\) goes to the API server on every event, and the controller has no informer of Pod`
	if err != nil || len(pods) == 0 {
		return err
	}
	// A Get through a helper of a resource nothing caches: one object by
	// name, left to -listerbypass.all as when written here. Silent.
	r := &nodeutil.Reader{Client: nc.kubeClient}
	if _, err := r.Namespace(ctx, pods[0].Namespace); err != nil {
		return err
	}
	_, err = nodeutil.DeletePods(ctx, nc.kubeClient, nodeName)
	return err
}
