// Command lws runs a Pod controller whose builder-wide event filter keeps
// the Pods of a leader-worker set by their label, through a type
// assertion of the object (kubernetes-sigs/lws v0.4.0
// pkg/controllers/pod_controller.go, SetupWithManager; cmd/main.go builds
// the manager with no cache options for Pods): the cache holds every Pod
// of the cluster. Its ConfigMap controller's filter reads the data of the
// ConfigMap, which no cache selector can select by: silent.
package main

import (
	"context"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

const setNameLabelKey = "leaderworkerset.sigs.k8s.io/name"

type PodReconciler struct{ client.Client }

func (r *PodReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.Pod{}). // want `the predicates of this watch select Pods by their labels, but a predicate filters events, not the cache`
		WithEventFilter(predicate.NewPredicateFuncs(func(object client.Object) bool {
			if pod, ok := object.(*corev1.Pod); ok {
				_, exist := pod.Labels[setNameLabelKey]
				return exist
			}
			if statefulSet, ok := object.(*appsv1.StatefulSet); ok {
				_, exist := statefulSet.Labels[setNameLabelKey]
				return exist
			}
			return false
		})).
		Owns(&appsv1.StatefulSet{}).
		Complete(r)
}

func (r *PodReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

type ConfigReconciler struct{ client.Client }

func (r *ConfigReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("config").
		For(&corev1.ConfigMap{}).
		WithEventFilter(predicate.NewPredicateFuncs(func(object client.Object) bool {
			cm, ok := object.(*corev1.ConfigMap)
			return ok && cm.Labels["app"] == "lws" && cm.Data["lws.yaml"] != ""
		})).
		Complete(r)
}

func (r *ConfigReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		os.Exit(1)
	}
	if err := (&PodReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&ConfigReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
}
