// Command restricted runs the konnect reconcilers with a cache that
// restricts ConfigMaps' informer as their predicate meant (a
// metadata.name Field selector), and sends Secret reads to the API
// server with DisableFor, which leaves the Secret watch's informer as it
// is: only the Secrets are reported.
package main

import (
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/legacy/cachescope/filtered/internal/konnect"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{ // want `the manager's cache holds every Secret of the cluster: the watch at konnect.go:\d+`
		Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{
			&corev1.ConfigMap{}: {Field: fields.OneTermEqualSelector("metadata.name", "operator-config")},
		}},
		Client: client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}},
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
}
