// Command namespaced runs the shared reconcilers with the cache limited to
// one namespace on every path (the operator-sdk scaffold's
// WATCH_NAMESPACE, required here): the Secret informer holds that
// namespace's Secrets only. Silent.
package main

import (
	"os"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"

	"example.com/legacy/cachescope/internal/controller"
)

func main() {
	ns, ok := os.LookupEnv("WATCH_NAMESPACE")
	if !ok {
		os.Exit(1)
	}
	opts := ctrl.Options{}
	opts.Cache.DefaultNamespaces = map[string]cache.Config{ns: {}}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), opts)
	if err != nil {
		os.Exit(1)
	}
	if err := (&controller.BackupReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
}
