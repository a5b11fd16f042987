package clientperreconcile

import (
	"context"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/current/clientperreconcile/generated/clientset/versioned"
)

// CSVReconciler reads an OLM ClusterServiceVersion through the generated
// clientset it builds in a helper on each reconcile: shaped on an
// operator's getCSV helper (olmcli.NewForConfig(r.Config), then
// OperatorsV1alpha1().ClusterServiceVersions(ns).Get). The generated
// clientset is recognised by its type, not its package.
type CSVReconciler struct {
	client.Client
	Config *rest.Config
}

func (r *CSVReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, r.getCSV(ctx, req.Namespace, req.Name)
}

func (r *CSVReconciler) getCSV(ctx context.Context, namespace, name string) error {
	cs, err := versioned.NewForConfig(r.Config) // want `versioned.NewForConfig in \(\*CSVReconciler\).Reconcile → \(\*CSVReconciler\).getCSV builds a new client on every reconcile`
	if err != nil {
		return err
	}
	_ = cs.Discovery()
	rec := NewForConfig(r.Config)
	_ = rec
	return nil
}

// A Recorder is no client: a NewForConfig that returns one is not a
// client builder. Silent.
type Recorder struct{ host string }

func NewForConfig(c *rest.Config) *Recorder { return &Recorder{host: c.Host} }
