package requeueerr

import (
	"context"
	"errors"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// A test's reconciler returns both on purpose, to exercise the framework's
// handling: silent.
type fakeReconciler struct{}

func (fakeReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{RequeueAfter: time.Millisecond}, errors.New("injected")
}

func TestFake(t *testing.T) {
	f := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{Requeue: true}, errors.New("injected")
	})
	if _, err := f(context.Background(), reconcile.Request{}); err == nil {
		t.Fatal("no error")
	}
	_ = fakeReconciler{}
}
