package clientperreconcile

import (
	"context"
	"testing"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
)

// testReconciler builds a clientset of the test's environment per
// reconcile: test code, silent.
type testReconciler struct {
	cfg *rest.Config
}

func (r *testReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_, err := kubernetes.NewForConfig(r.cfg)
	return ctrl.Result{}, err
}

func TestReconcile(t *testing.T) {
	r := &testReconciler{cfg: &rest.Config{Host: "https://127.0.0.1:6443"}}
	if _, err := r.Reconcile(context.Background(), ctrl.Request{}); err != nil {
		t.Fatal(err)
	}
	// A helper the test calls builds a client each time: silent.
	if _, err := kubernetes.NewForConfig(r.cfg); err != nil {
		t.Fatal(err)
	}
}
