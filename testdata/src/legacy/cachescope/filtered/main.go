// Command filtered runs reconcilers that select the Secrets, ConfigMaps
// and Pods they watch with predicates, with a manager whose cache options
// restrict none of these kinds: the cache holds all of them. The Pod
// watch, in this package, is reported where it is; the others where the
// manager is built.
package main

import (
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"example.com/legacy/cachescope/filtered/internal/konnect"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{}) // want `the manager's cache holds every ConfigMap of the cluster: the watch at konnect.go:\d+ in example.com/legacy/cachescope/filtered/internal/konnect selects ConfigMaps by their name and namespace with a predicate, which filters events, not the cache, and these options do not restrict ConfigMaps; restrict the informer itself \(a ByObject entry for ConfigMap with a metadata.name Field selector or Namespaces\)` `the manager's cache holds every Secret of the cluster: the watch at konnect.go:\d+ in .* selects Secrets by their labels`
	if err != nil {
		os.Exit(1)
	}
	if err := (&konnect.ExtensionReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&konnect.ConfigReconciler{Client: mgr.GetClient(), Namespace: "operator"}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	// The typed source's predicate reads the label field itself.
	solverPods := predicate.NewTypedPredicateFuncs(func(pod *corev1.Pod) bool {
		return pod.Labels["acme.example.com/http01-solver"] == "true"
	})
	if err := ctrl.NewControllerManagedBy(mgr).
		For(&appsv1.Deployment{}).
		WatchesRawSource(source.Kind(mgr.GetCache(), &corev1.Pod{}, &handler.TypedEnqueueRequestForObject[*corev1.Pod]{}, solverPods)). // want `the predicates of this watch select Pods by their labels, but a predicate filters events, not the cache: the manager's cache still holds every Pod of the cluster; restrict the informer itself \(a ByObject entry for corev1.Pod with a Label selector\), and read any Pod it leaves out through mgr.GetAPIReader\(\)`
		Complete(reconcile.Func(nil)); err != nil {
		os.Exit(1)
	}
}
