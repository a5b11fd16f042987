package handlerblocking

import (
	"context"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// LeaseTracker is shaped on knative serving v0.42.2's autoscaler stat
// forwarder (pkg/autoscaler/statforwarder/leases.go, leaseTracker): a
// filtering handler's AddFunc, on becoming a bucket's holder, creates the
// bucket's Service, retrying with wait.PollUntilContextTimeout, on the
// informer's delivery goroutine.
type LeaseTracker struct {
	kc kubernetes.Interface
}

func NewLeaseTracker(kc kubernetes.Interface, informer cache.SharedIndexInformer) *LeaseTracker {
	lt := &LeaseTracker{kc: kc}
	informer.AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj any) bool { _, ok := obj.(*coordinationv1.Lease); return ok },
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc: lt.leaseUpdated,
		},
	})
	return lt
}

func (lt *LeaseTracker) leaseUpdated(obj any) {
	l := obj.(*coordinationv1.Lease)
	_ = lt.createService(context.Background(), l.Namespace, l.Name)
}

func (lt *LeaseTracker) createService(ctx context.Context, ns, n string) error {
	var lastErr error
	if err := wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(context.Context) (bool, error) { // want `wait.PollUntilContextTimeout in the AddFunc handler \(via lt.leaseUpdated → lt.createService\): event handlers run on the informer's delivery goroutine, so every later event of this handler waits out the delay; enqueue the key with AddAfter, or poll in a worker`
		_, lastErr = lt.kc.CoreV1().Services(ns).Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: n, Namespace: ns}}, metav1.CreateOptions{}) // want `Services\(\).Create API call in the AddFunc handler \(via lt.leaseUpdated → lt.createService\)`
		return lastErr == nil, nil
	}); err != nil {
		return lastErr
	}
	return nil
}
