package main

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// TestDeleteServerErrors: opting out makes the controller delete the
// children; the API server fails those deletes with a 500 and a 503 first.
// The errors are retried with backoff until both children are gone.
func TestDeleteServerErrors(t *testing.T) {
	web := deployment("web", true)
	client := fake.NewClientset(web)
	var deletes atomic.Int32
	client.PrependReactor("delete", "*", func(k8stesting.Action) (bool, runtime.Object, error) {
		switch deletes.Add(1) {
		case 1:
			return true, nil, apierrors.NewInternalError(errBoom)
		case 2:
			return true, nil, apierrors.NewServiceUnavailable("the server is shutting down")
		}
		return false, nil, nil
	})
	h := run(t, client)
	defer h.stop()
	ctx := context.Background()
	eventually(t, "web's children", func() bool { _, ok := children(h, "web"); return ok })
	optOut := web.DeepCopy()
	optOut.Annotations = nil
	if _, err := client.AppsV1().Deployments("ns").Update(ctx, optOut, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the children to be deleted despite server errors", func() bool {
		_, errPDB := client.PolicyV1().PodDisruptionBudgets("ns").Get(ctx, PDBName("web"), metav1.GetOptions{})
		_, errSA := client.CoreV1().ServiceAccounts("ns").Get(ctx, ServiceAccountName("web"), metav1.GetOptions{})
		return apierrors.IsNotFound(errPDB) && apierrors.IsNotFound(errSA)
	})
	if deletes.Load() < 4 {
		t.Errorf("only %d delete attempts: the faults were not exercised", deletes.Load())
	}
}

// TestWatchErrorRelist: the Deployment watch ends with a 500 error event
// (not an expiry), and while it was down one Deployment opted out, another
// opted in and a third was deleted. The informer re-lists; the controller
// sees every change: the opted-out one's children are deleted, the new
// one's created, and the deleted one leaves no stuck key.
func TestWatchErrorRelist(t *testing.T) {
	web, gone := deployment("web", true), deployment("gone", true)
	client := fake.NewClientset(web, gone)
	var mu sync.Mutex
	var current *watch.RaceFreeFakeWatcher
	var watches atomic.Int32
	client.PrependWatchReactor("deployments", func(k8stesting.Action) (bool, watch.Interface, error) {
		w := watch.NewRaceFreeFake() // sees nothing the test does not send
		mu.Lock()
		current = w
		mu.Unlock()
		watches.Add(1)
		return true, w, nil
	})
	h := run(t, client)
	defer h.stop()
	ctx := context.Background()
	eventually(t, "web's and gone's children", func() bool {
		_, web := children(h, "web")
		_, gone := children(h, "gone")
		return web && gone
	})

	// Behind the informer's back: web opts out, api opts in, gone goes.
	gvr := appsv1.SchemeGroupVersion.WithResource("deployments")
	optOut := web.DeepCopy()
	optOut.Annotations = nil
	if err := client.Tracker().Update(gvr, optOut, "ns", metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := client.Tracker().Create(gvr, deployment("api", true), "ns", metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := client.Tracker().Delete(gvr, "ns", "gone", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	before := watches.Load()
	mu.Lock()
	current.Error(&apierrors.NewInternalError(errBoom).ErrStatus)
	mu.Unlock()

	eventually(t, "api's children after the re-list", func() bool { _, ok := children(h, "api"); return ok })
	eventually(t, "web's children deleted after the re-list", func() bool {
		_, errPDB := client.PolicyV1().PodDisruptionBudgets("ns").Get(ctx, PDBName("web"), metav1.GetOptions{})
		_, errSA := client.CoreV1().ServiceAccounts("ns").Get(ctx, ServiceAccountName("web"), metav1.GetOptions{})
		return apierrors.IsNotFound(errPDB) && apierrors.IsNotFound(errSA)
	})
	if watches.Load() <= before {
		t.Error("the informer did not watch again after the error")
	}
	// gone's children are the garbage collector's; the controller only
	// forgets gone. They are still there.
	if _, ok := children(h, "gone"); !ok {
		t.Error("the children of the deleted Deployment were touched")
	}
}
