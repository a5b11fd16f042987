// Command scoped runs the same reconcilers as the cachescope command with a cache
// that cannot grow with the cluster: the manager's client reads Secrets
// live (securesign/secure-sign-operator cmd/main.go after 5d047ed7,
// "disable informer cache for Secret and ConfigMap", in v1.4.x), and the
// cache is limited to the operator's namespace on every path. Silent.
package main

import (
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/legacy/cachescope/internal/controller"
)

func main() {
	operatorCacheSelector := cache.ByObject{Label: labels.SelectorFromSet(labels.Set{"app.kubernetes.io/managed-by": "operator"})}
	cacheOpts := cache.Options{
		ByObject: map[client.Object]cache.ByObject{
			&appsv1.Deployment{}: operatorCacheSelector,
			&corev1.Pod{}:        operatorCacheSelector,
		},
	}
	if ns := os.Getenv("OPERATOR_NAMESPACE"); ns != "" {
		// A ByObject entry added later restricts ConfigMaps too.
		cacheOpts.ByObject[&corev1.ConfigMap{}] = cache.ByObject{Namespaces: map[string]cache.Config{ns: {}}}
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Cache: cacheOpts,
		Client: client.Options{
			Cache: &client.CacheOptions{
				DisableFor: []client.Object{&corev1.Secret{}},
			},
		},
	})
	if err != nil {
		os.Exit(1)
	}
	if err := (&controller.BackupReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&controller.ServerReconciler{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
}
