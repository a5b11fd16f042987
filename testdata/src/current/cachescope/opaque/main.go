// Command opaque builds its manager from options filled by a function
// given their address (flag helpers that apply to ctrl.Options), which
// may set any field, and reads a Secret no controller watches: what the
// cache holds is not known here, and nothing is reported.
package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

func applyFlags(opts *ctrl.Options) {
	if ns := os.Getenv("WATCH_NAMESPACE"); ns != "" {
		opts.Cache.DefaultNamespaces = map[string]cache.Config{ns: {}}
	}
}

func token(ctx context.Context, mgr manager.Manager) (*corev1.Secret, error) {
	s := &corev1.Secret{}
	err := mgr.GetClient().Get(ctx, types.NamespacedName{Namespace: "system", Name: "token"}, s)
	return s, err
}

func main() {
	opts := ctrl.Options{}
	applyFlags(&opts)
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), opts)
	if err != nil {
		os.Exit(1)
	}
	if _, err := token(context.Background(), mgr); err != nil {
		os.Exit(1)
	}
}
