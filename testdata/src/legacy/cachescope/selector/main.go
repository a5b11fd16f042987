// Command selector limits every informer of its cache with a label
// selector (cache.Options.DefaultLabelSelector): its Secret read holds the
// labelled Secrets only. Silent.
package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Cache: cache.Options{DefaultLabelSelector: labels.SelectorFromSet(labels.Set{"app.kubernetes.io/managed-by": "op"})},
	})
	if err != nil {
		os.Exit(1)
	}
	s := &corev1.Secret{}
	if err := mgr.GetClient().Get(context.Background(), types.NamespacedName{Namespace: "system", Name: "token"}, s); err != nil {
		os.Exit(1)
	}
}
