// Package podgc holds a controller that lists, on every pass of a periodic
// loop, a resource no informer of its caches: the fix is an informer, not
// a lister it already has.
package podgc

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
)

// PodGC is shaped like kubernetes' pod garbage collector before it gained
// a node informer (pkg/controller/podgc/gc_controller.go, v1.16: Run starts
// gc with wait.Until, and gcOrphaned listed every node on each pass; fixed
// by kubernetes PR 82365): it caches pods, not nodes.
type PodGC struct {
	kubeClient kubernetes.Interface
	podLister  corelisters.PodLister
	nsInformer coreinformers.NamespaceInformer // handed in, kept for HasSynced
}

func NewPodGC(ctx context.Context, client kubernetes.Interface, pods coreinformers.PodInformer, namespaces coreinformers.NamespaceInformer) (*PodGC, error) { // want NewPodGC:`reads\(List Node at podgc.go:\d+\)`
	gcc := &PodGC{kubeClient: client, podLister: pods.Lister(), nsInformer: namespaces}
	// A one-off read at start-up: silent.
	if _, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{}); err != nil {
		return nil, err
	}
	return gcc, nil
}

func (gcc *PodGC) Run(ctx context.Context) { // want Run:`reads\(List Node at podgc.go:\d+\)`
	// Run reads once before its loop starts: silent.
	if _, err := gcc.kubeClient.CoreV1().Nodes().List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
		return
	}
	go wait.UntilWithContext(ctx, gcc.gc, 20*time.Second)
	<-ctx.Done()
}

func (gcc *PodGC) gc(ctx context.Context) {
	pods, err := gcc.podLister.List(nil)
	if err != nil {
		return
	}
	gcc.gcOrphaned(ctx, pods)
}

func (gcc *PodGC) gcOrphaned(ctx context.Context, pods []*corev1.Pod) {
	nodes, err := gcc.kubeClient.CoreV1().Nodes().List(ctx, metav1.ListOptions{}) // want `clientset List of Node goes to the API server on every event, and the controller has no informer of Node: add one \(a Node lister from a shared informer factory\) and read through it`
	if err != nil {
		return
	}
	existing := map[string]bool{}
	for _, n := range nodes.Items {
		existing[n.Name] = true
	}
	for _, p := range pods {
		if !existing[p.Spec.NodeName] {
			_ = p // deleted in the real controller, through a helper of another package
		}
	}
	// One node at a time by name: Gets are not reported (see doc.go).
	if _, err := gcc.kubeClient.CoreV1().Nodes().Get(ctx, "node-a", metav1.GetOptions{}); err != nil {
		return
	}
	// Namespaces have an informer here (a parameter kept for HasSynced):
	// the fix is not another informer but its lister.
	if _, err := gcc.kubeClient.CoreV1().Namespaces().List(ctx, metav1.ListOptions{}); err != nil { // want `clientset List of Namespace goes to the API server on every sync, though the controller caches Namespace: read through gcc\.nsInformer\.Lister\(\)`
		return
	}
}
