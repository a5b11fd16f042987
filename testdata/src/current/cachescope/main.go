// Command cachescope builds the manager of the fixture's reconcilers
// (internal/controller), whose reads it reports. Shapes: kubeflow/spark-operator v2.4.0
// cmd/operator/controller/start.go (newCacheOptions: DefaultNamespaces
// filled only when namespaces are given, a ByObject map with a labelled
// Pod entry and an empty ConfigMap entry, fixed by #2878 in v2.5.0) and
// k8ssandra-operator v1.32.5 main.go (each reconciler given Client:
// mgr.GetClient(); issue #1752: in cluster-scoped mode the namespaces
// stay empty and the cache holds the whole cluster).
package main

import (
	"os"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/current/cachescope/internal/controller"
)

var namespaces []string

func newCacheOptions() cache.Options {
	defaultNamespaces := make(map[string]cache.Config)
	if !contains(namespaces, cache.AllNamespaces) {
		for _, ns := range namespaces {
			defaultNamespaces[ns] = cache.Config{}
		}
	}
	return cache.Options{
		DefaultNamespaces: defaultNamespaces,
		ByObject: map[client.Object]cache.ByObject{
			&corev1.Pod{}: {
				Label: labels.SelectorFromSet(labels.Set{"launched-by": "operator"}),
			},
			&corev1.ConfigMap{}: {}, // want `this ByObject entry for corev1.ConfigMap sets no selector, namespace or transform: it filters nothing, and the cache holds every ConfigMap of the namespaces it watches`
		},
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func main() {
	if ns := os.Getenv("WATCH_NAMESPACE"); ns != "" {
		namespaces = strings.Split(ns, ",")
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{ // want `the manager's cache holds every Secret of the cluster when no namespace is given`
		Cache: newCacheOptions(),
	})
	if err != nil {
		os.Exit(1)
	}
	if err := (&controller.BackupReconciler{
		Client: mgr.GetClient(),
		Scheme: mgr.GetScheme(),
	}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&controller.ServerReconciler{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Scheme:    mgr.GetScheme(),
	}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	ctx := ctrl.SetupSignalHandler()
	if _, err := readCABundle(ctx, mgr.GetClient(), "cert-manager", "webhook-ca"); err != nil {
		os.Exit(1)
	}
	if _, err := webhookCert(ctx, mgr); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctx); err != nil {
		os.Exit(1)
	}
}
