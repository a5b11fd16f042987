package handlerblocking

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// podRecorder is a handler type in the shape of prometheus-operator
// v0.85.0's ResourceReconciler (pkg/operator/resource_reconciler.go: OnAdd,
// OnUpdate, OnDelete methods, the value handed to AddEventHandler). Its
// OnAdd only enqueues, as the original does: silent. Its OnUpdate records
// an Event through the clientset and its OnDelete asks the API server
// through the REST client: what a handler type must not do.
type podRecorder struct {
	client kubernetes.Interface
	dyn    dynamic.Interface
	queue  workqueue.TypedRateLimitingInterface[string]
}

func registerRecorder(informer cache.SharedIndexInformer, r *podRecorder) {
	_, _ = informer.AddEventHandler(r)
}

func (r *podRecorder) OnAdd(obj any, _ bool) {
	if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
		r.queue.Add(key)
	}
}

func (r *podRecorder) OnUpdate(_, cur any) {
	pod, ok := cur.(*corev1.Pod)
	if !ok {
		return
	}
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{GenerateName: pod.Name, Namespace: pod.Namespace}}
	_, _ = r.client.CoreV1().Events(pod.Namespace).Create(context.TODO(), ev, metav1.CreateOptions{}) // want `Events\(\).Create API call in the OnUpdate handler of podRecorder \(via r.OnUpdate\)`
}

func (r *podRecorder) OnDelete(obj any) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	// GetLogs only builds the request: the Do is the call.
	req := r.client.CoreV1().Pods(pod.Namespace).GetLogs(pod.Name, &corev1.PodLogOptions{})
	_ = req.Do(context.TODO()) // want `REST request Do API call in the OnDelete handler of podRecorder`
	gvr := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	_ = r.dyn.Resource(gvr).Namespace(pod.Namespace).Delete(context.TODO(), pod.Name, metav1.DeleteOptions{}) // want `dynamic client Delete API call in the OnDelete handler of podRecorder`
}

// Notifier hands each added pod's name to a consumer over an unbuffered
// channel (a construct: no released controller was seen doing it; the
// channel-per-event pattern of e2e tests such as kubernetes'
// test/e2e/node/taints.go uses a buffered channel, which is silent), and
// waits for a second informer's cache inside a handler.
type Notifier struct {
	names chan string
	other cache.SharedIndexInformer
}

func NewNotifier(informer, other cache.SharedIndexInformer) *Notifier {
	n := &Notifier{names: make(chan string), other: other}
	done := make(chan struct{})
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if !cache.WaitForCacheSync(done, n.other.HasSynced) { // want `cache.WaitForCacheSync in the AddFunc handler: event handlers run on the informer's delivery goroutine, and waiting there for a cache to sync can wait for this very informer`
				return
			}
			if pod, ok := obj.(*corev1.Pod); ok {
				n.names <- pod.Name // want `send on an unbuffered channel in the AddFunc handler: event handlers run on the informer's delivery goroutine, and a send on an unbuffered channel blocks it until a receiver is ready`
			}
		},
		DeleteFunc: func(obj any) {
			done <- struct{}{} // want `send on an unbuffered channel in the DeleteFunc handler`
		},
	})
	return n
}
