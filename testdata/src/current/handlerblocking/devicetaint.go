package handlerblocking

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// TaintController is shaped on kubernetes v1.37.2's device taint eviction
// controller (pkg/controller/devicetainteviction/device_taint_eviction.go):
// its handlers take tc.mutex to update shared state, and
// maybeUpdateRuleStatus, a worker, holds tc.mutex (Lock, defer Unlock)
// across an ApplyStatus call, so every handler that locks waits for the
// API server. maybeDeletePod unlocks before its API call ("We must not hold
// this mutex while doing blocking API calls"): silent.
type TaintController struct {
	client kubernetes.Interface
	mutex  sync.Mutex
	counts map[string]int
	queue  workqueue.TypedRateLimitingInterface[string]
}

// worker handles the queue's items, as the original's worker does with
// its rule status work items (handleWorkItem).
func (tc *TaintController) worker(ctx context.Context) {
	for {
		key, shutdown := tc.queue.Get()
		if shutdown {
			return
		}
		if err := tc.maybeUpdateRuleStatus(ctx, key); err != nil {
			tc.queue.AddRateLimited(key)
		} else {
			tc.queue.Forget(key)
		}
		tc.queue.Done(key)
	}
}

func (tc *TaintController) Run(podInformer, nodeInformer cache.SharedIndexInformer) {
	podInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			tc.mutex.Lock()
			defer tc.mutex.Unlock()
			tc.counts["pods"]++
		},
		UpdateFunc: func(_, obj any) {
			tc.mutex.Lock()
			defer tc.mutex.Unlock()
			tc.counts["pods"]++
		},
	})
	nodeInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			tc.mutex.Lock()
			tc.counts["nodes"]--
			tc.mutex.Unlock()
		},
	})
}

func (tc *TaintController) maybeUpdateRuleStatus(ctx context.Context, name string) error {
	tc.mutex.Lock()
	defer tc.mutex.Unlock()
	if tc.counts[name] == 0 {
		return nil
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	_, err := tc.client.CoreV1().Namespaces().UpdateStatus(ctx, ns, metav1.UpdateOptions{}) // want `Namespaces\(\).UpdateStatus API call while tc.maybeUpdateRuleStatus holds tc.mutex, which 3 event handlers \(the AddFunc handler at devicetaint.go:\d+, ...\) lock too: handlers run on the informer's delivery goroutine, so every later event of theirs waits for the API server; unlock before the call`
	return err
}

func (tc *TaintController) maybeDeletePod(ctx context.Context, ns, name string) error {
	tc.mutex.Lock()
	n := tc.counts[name]
	tc.mutex.Unlock()
	if n == 0 {
		return nil
	}
	return tc.client.CoreV1().Pods(ns).Delete(ctx, name, metav1.DeleteOptions{})
}

// claimTracker's update handler itself holds the lock across its API call:
// reported once, as the handler's call, not again as a section the other
// handler waits for.
type claimTracker struct {
	client kubernetes.Interface
	mu     sync.Mutex
}

func (ct *claimTracker) Register(informer cache.SharedIndexInformer) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: ct.onUpdate,
		DeleteFunc: func(obj any) {
			ct.mu.Lock()
			defer ct.mu.Unlock()
		},
	})
}

func (ct *claimTracker) onUpdate(_, cur any) {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	_, _ = ct.client.CoreV1().Nodes().Get(context.TODO(), "n", metav1.GetOptions{}) // want `^Nodes\(\).Get API call in the UpdateFunc handler \(via ct.onUpdate\)`
}

// warmUp lists nodes under the lock once, before the workers start (set-up
// code, on no per-event path): the handlers wait for it at most once.
// Silent.
func (tc *TaintController) warmUp(ctx context.Context) {
	tc.mutex.Lock()
	defer tc.mutex.Unlock()
	nodes, err := tc.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err == nil {
		tc.counts["nodes"] = len(nodes.Items)
	}
}
