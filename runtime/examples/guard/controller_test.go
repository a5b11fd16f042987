package main

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/util/workqueue"

	"github.com/ctrllint/ctrllint/runtime/eventhandler"
	"github.com/ctrllint/ctrllint/runtime/workloop"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func deployment(name string, guarded bool) *appsv1.Deployment {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: "uid-" + typesUID(name)},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}}}}
	if guarded {
		d.Annotations = map[string]string{Annotation: "true"}
	}
	return d
}

// harness runs the example controller on a fake clientset with real
// informers; stop shuts everything down and waits for it.
type harness struct {
	client *fake.Clientset
	stop   func()
}

func run(t *testing.T, client *fake.Clientset) *harness {
	t.Helper()
	factory := informers.NewSharedInformerFactory(client, 0)
	c := New(client, factory, workloop.WithRateLimiter[eventhandler.Key](
		workqueue.NewTypedItemExponentialFailureRateLimiter[eventhandler.Key](time.Millisecond, 20*time.Millisecond)))
	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, 2) }()
	h := &harness{client: client}
	h.stop = func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return")
		}
		factory.Shutdown()
	}
	return h
}

// watching makes the client's watches and reports which resources have one.
// The fake tracker replays objects newer than the list on a late watch but
// not deletions, so a test that deletes an object first waits for its watch.
func watching(client *fake.Clientset) func(resource string) bool {
	var mu sync.Mutex
	started := map[string]bool{}
	client.PrependWatchReactor("*", func(action k8stesting.Action) (bool, watch.Interface, error) {
		var opts []metav1.ListOptions
		if w, ok := action.(k8stesting.WatchActionImpl); ok {
			opts = append(opts, w.ListOptions)
		}
		w, err := client.Tracker().Watch(action.GetResource(), action.GetNamespace(), opts...)
		if err == nil {
			mu.Lock()
			started[action.GetResource().Resource] = true
			mu.Unlock()
		}
		return true, w, err
	})
	return func(resource string) bool {
		mu.Lock()
		defer mu.Unlock()
		return started[resource]
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// children returns the guard children of a deployment that exist.
func children(h *harness, d string) (*corev1.ServiceAccount, bool) {
	ctx := context.Background()
	_, errPDB := h.client.PolicyV1().PodDisruptionBudgets("ns").Get(ctx, PDBName(d), metav1.GetOptions{})
	sa, errSA := h.client.CoreV1().ServiceAccounts("ns").Get(ctx, ServiceAccountName(d), metav1.GetOptions{})
	return sa, errPDB == nil && errSA == nil
}

func controlledBy(o metav1.Object, d *appsv1.Deployment) bool {
	ref := metav1.GetControllerOf(o)
	return ref != nil && ref.UID == d.UID && ref.Kind == "Deployment" && ref.BlockOwnerDeletion != nil && *ref.BlockOwnerDeletion
}

// TestLifecycle: children appear for guarded Deployments only, come back
// when deleted, and go when the annotation is removed.
func TestLifecycle(t *testing.T) {
	web, plain := deployment("web", true), deployment("plain", false)
	client := fake.NewClientset(web, plain)
	watched := watching(client)
	h := run(t, client)
	defer h.stop()
	ctx := context.Background()

	eventually(t, "web's children", func() bool { _, ok := children(h, "web"); return ok })
	sa, _ := children(h, "web")
	if !controlledBy(sa, web) {
		t.Errorf("ServiceAccount not controlled by web: %+v", sa.OwnerReferences)
	}
	pdb, _ := h.client.PolicyV1().PodDisruptionBudgets("ns").Get(ctx, PDBName("web"), metav1.GetOptions{})
	if !controlledBy(pdb, web) || pdb.Spec.Selector.MatchLabels["app"] != "web" {
		t.Errorf("PDB not right: %+v", pdb)
	}
	if _, ok := children(h, "plain"); ok {
		t.Error("an unannotated Deployment got children")
	}

	// Deleted children come back.
	eventually(t, "the ServiceAccounts' watch", func() bool { return watched("serviceaccounts") })
	if err := h.client.CoreV1().ServiceAccounts("ns").Delete(ctx, ServiceAccountName("web"), metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the ServiceAccount to be re-created", func() bool { _, ok := children(h, "web"); return ok })

	// Opting out deletes them.
	optOut := web.DeepCopy()
	optOut.Annotations = nil
	if _, err := h.client.AppsV1().Deployments("ns").Update(ctx, optOut, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the children to be deleted", func() bool {
		_, errPDB := h.client.PolicyV1().PodDisruptionBudgets("ns").Get(ctx, PDBName("web"), metav1.GetOptions{})
		_, errSA := h.client.CoreV1().ServiceAccounts("ns").Get(ctx, ServiceAccountName("web"), metav1.GetOptions{})
		return apierrors.IsNotFound(errPDB) && apierrors.IsNotFound(errSA)
	})
}

// TestServerErrors: the API server fails creates with 500s and conflicts
// for a while; the controller retries with backoff until the children
// exist, then forgets the key.
func TestServerErrors(t *testing.T) {
	client := fake.NewClientset(deployment("web", true))
	var failures atomic.Int32
	client.PrependReactor("create", "poddisruptionbudgets", func(k8stesting.Action) (bool, runtime.Object, error) {
		switch failures.Add(1) {
		case 1, 2:
			return true, nil, apierrors.NewInternalError(errBoom)
		case 3:
			return true, nil, apierrors.NewServerTimeout(corev1.Resource("poddisruptionbudgets"), "create", 0)
		}
		return false, nil, nil
	})
	h := run(t, client)
	defer h.stop()
	eventually(t, "web's children despite server errors", func() bool { _, ok := children(h, "web"); return ok })
	if failures.Load() < 4 {
		t.Errorf("only %d create attempts: the faults were not exercised", failures.Load())
	}
}

// TestChildOfSomeoneElse: a ServiceAccount of the right name that another
// owner controls is left alone.
func TestChildOfSomeoneElse(t *testing.T) {
	web := deployment("web", true)
	yes := true
	taken := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: ServiceAccountName("web"),
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "db", UID: "other", Controller: &yes}}}}
	h := run(t, fake.NewClientset(web, taken))
	defer h.stop()
	ctx := context.Background()
	eventually(t, "web's PDB", func() bool {
		_, err := h.client.PolicyV1().PodDisruptionBudgets("ns").Get(ctx, PDBName("web"), metav1.GetOptions{})
		return err == nil
	})
	sa, err := h.client.CoreV1().ServiceAccounts("ns").Get(ctx, ServiceAccountName("web"), metav1.GetOptions{})
	if err != nil || len(sa.OwnerReferences) != 1 || sa.OwnerReferences[0].UID != "other" {
		t.Errorf("the other owner's ServiceAccount was touched: %+v %v", sa, err)
	}
}
