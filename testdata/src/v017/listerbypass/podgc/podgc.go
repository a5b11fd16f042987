// Package podgc is the podgc fixture of the current module written against
// client-go v0.17, before clientset calls took a context: kubernetes'
// pod garbage collector at v1.16 (pkg/controller/podgc/gc_controller.go:
// Run starts gc with `go wait.Until(gcc.gc, gcc.gcCheckPeriod, stop)`, and
// gcOrphaned listed every node on each pass with
// `gcc.kubeClient.CoreV1().Nodes().List(metav1.ListOptions{})`; fixed by
// kubernetes PR 82365, which gave it a node informer).
package podgc

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
)

type PodGC struct {
	kubeClient kubernetes.Interface
	podLister  corelisters.PodLister
}

func NewPodGC(client kubernetes.Interface, pods coreinformers.PodInformer) *PodGC {
	return &PodGC{kubeClient: client, podLister: pods.Lister()}
}

func (gcc *PodGC) Run(stop <-chan struct{}) { // want Run:`reads\(List Node at podgc.go:\d+\)`
	// A one-off read before the loop: silent.
	if _, err := gcc.kubeClient.CoreV1().Nodes().List(metav1.ListOptions{Limit: 1}); err != nil {
		return
	}
	go wait.Until(gcc.gc, 20*time.Second, stop)
	<-stop
}

func (gcc *PodGC) gc() {
	pods, err := gcc.podLister.List(labels.Everything())
	if err != nil {
		return
	}
	gcc.gcOrphaned(pods)
}

func (gcc *PodGC) gcOrphaned(pods []*corev1.Pod) {
	nodes, err := gcc.kubeClient.CoreV1().Nodes().List(metav1.ListOptions{}) // want `clientset List of Node goes to the API server on every event, and the controller has no informer of Node: add one \(a Node lister from a shared informer factory\) and read through it`
	if err != nil {
		return
	}
	existing := map[string]bool{}
	for _, n := range nodes.Items {
		existing[n.Name] = true
	}
	for _, p := range pods {
		if !existing[p.Spec.NodeName] {
			_ = gcc.kubeClient.CoreV1().Pods(p.Namespace).Delete(p.Name, &metav1.DeleteOptions{})
		}
	}
}
