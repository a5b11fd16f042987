package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// readCABundle reads the CA of cert-manager's Secret with the reader it is
// given, the manager's client: TeraSky-OSS/declarative-conversion-operator
// issue #146 (internal/controller/xrdconversionconfig_controller.go's
// readCABundle, for one ca.crt per webhook server). Reported here, in the
// manager's package.
func readCABundle(ctx context.Context, c client.Reader, namespace, name string) ([]byte, error) {
	s := &corev1.Secret{}
	if err := c.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, s); err != nil { // want `this Get of corev1.Secret goes through the manager's cached client: no controller watches Secrets and the cache options do not restrict them, so it starts an informer that holds every Secret of the cluster when no namespace is given`
		return nil, err
	}
	return s.Data["ca.crt"], nil
}

// webhookCert reads the webhook's serving certificate once at start.
func webhookCert(ctx context.Context, mgr manager.Manager) ([]byte, error) {
	s := &corev1.Secret{}
	//ctrllint:ignore cachescope the chart installs the operator with WATCH_NAMESPACE set; the cluster-wide mode is for tests only
	if err := mgr.GetClient().Get(ctx, types.NamespacedName{Namespace: "operator-system", Name: "webhook-cert"}, s); err != nil {
		return nil, err
	}
	return s.Data["tls.crt"], nil
}
