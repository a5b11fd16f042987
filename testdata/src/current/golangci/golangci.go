// Package golangci is the fixture of the golangci-lint plugin's test
// (plugin/golangci_test.go, make golangci). Unlike the analyzer fixtures,
// its want comments hold the whole text golangci-lint prints, "ANALYZER:
// message", as a regular expression.
//
// The same delete handler appears four times; only the suppression differs:
// ctrllint's own directive silences one analyzer; golangci-lint's nolint
// directive naming ctrllint silences the whole plugin; a nolint directive
// naming an analyzer silences nothing, because golangci-lint knows no linter
// by that name (the linter is ctrllint, the analyzer only a prefix of the
// finding's text).
package golangci

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

func handlers(informer cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	// Unsuppressed: reported.
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*corev1.Pod) // want `tombstone: type assertion to \*v1.Pod panics on the cache.DeletedFinalStateUnknown tombstone`
			q.Add(pod.Name)
		},
	})
	// ctrllint's directive, with its reason: suppressed by the analyzer.
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*corev1.Pod) //ctrllint:ignore tombstone the fixture's informer never re-lists
			q.Add(pod.Name)
		},
	})
	// golangci-lint's directive for the plugin: every ctrllint finding on
	// the line is dropped by golangci-lint.
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*corev1.Pod) //nolint:ctrllint // the fixture's informer never re-lists
			q.Add(pod.Name)
		},
	})
	// golangci-lint's directive with an analyzer's name: not a linter, so
	// golangci-lint warns about an unknown linter and drops nothing.
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*corev1.Pod) //nolint:tombstone // want `tombstone: type assertion to \*v1.Pod panics`
			q.Add(pod.Name)
		},
	})
}

// Widget is a namespaced custom resource.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (w *Widget) DeepCopyObject() runtime.Object {
	c := *w
	return &c
}

type WidgetReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// Reconcile drops an error: a sharedowner finding, for the enable/disable
// settings.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: w.Name + "-config", Namespace: req.Namespace}}
	_ = controllerutil.SetControllerReference(&w, cm, r.Scheme) // want `sharedowner: the error of controllerutil.SetControllerReference is dropped`
	return ctrl.Result{}, r.Create(ctx, cm)
}
