// Command wanted runs the tls reconcilers, whose watches want every
// Secret, ConfigMap and Pod whatever their predicates say, and the
// konnect reconcilers under a cache whose ByObject entries restrict
// Secrets and ConfigMaps as their predicates meant. Silent.
package main

import (
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/current/cachescope/filtered/internal/konnect"
	"example.com/current/cachescope/filtered/internal/tls"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{
			&corev1.Secret{}:    {Label: labels.SelectorFromSet(labels.Set{konnect.SecretDataPlaneCertificateLabel: "true"})},
			&corev1.ConfigMap{}: {Namespaces: map[string]cache.Config{"operator": {}}},
		}},
	})
	if err != nil {
		os.Exit(1)
	}
	if err := (&konnect.ExtensionReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&konnect.ConfigReconciler{Client: mgr.GetClient(), Namespace: "operator"}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&tls.CertReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&tls.BundleReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&tls.PodReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
}
