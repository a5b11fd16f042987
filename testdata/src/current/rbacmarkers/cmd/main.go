// Command cmd keeps markers for what other packages do, as cluster-api's
// core/main.go (sigs.k8s.io/cluster-api v1.14.2) keeps the markers of its
// CustomResourceDefinition reads and its reviews: controller-gen runs on
// the whole module and writes one role, so they grant the calls of the
// controller package too.
package main

import (
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/current/rbacmarkers"
)

// +kubebuilder:rbac:groups=apiextensions.k8s.io,resources=customresourcedefinitions,verbs=get;list;watch
// +kubebuilder:rbac:groups=authentication.k8s.io,resources=tokenreviews,verbs=create

func main() {
	scheme := runtime.NewScheme()
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme})
	if err != nil {
		os.Exit(1)
	}
	r := &rbacmarkers.CronJobReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme()}
	if err := r.SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
