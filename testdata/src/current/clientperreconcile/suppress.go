package clientperreconcile

import (
	"context"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
)

// BootstrapReconciler reconciles a singleton created once per install; it
// builds a discovery client on each reconcile on purpose, so that a cached
// one cannot hide the CRDs installed since, and says so in a directive.
type BootstrapReconciler struct {
	cfg *rest.Config
}

func (r *BootstrapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(r.cfg) //ctrllint:ignore clientperreconcile reconciled once per install; a fresh discovery client sees the CRDs installed since
	if err != nil {
		return ctrl.Result{}, err
	}
	_, err = dc.ServerGroups()
	return ctrl.Result{}, err
}
