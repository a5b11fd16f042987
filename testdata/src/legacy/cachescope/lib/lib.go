// want package:"cachescope\\(reads \\[Get k8s.io/api/core/v1.Secret at "

// Package lib is a library of reconcilers whose manager is built
// elsewhere (not analysed here): what its cache holds is not known, and
// nothing is reported.
package lib

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type TokenReconciler struct {
	client.Client
}

func (r *TokenReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	s := &corev1.Secret{}
	return ctrl.Result{}, r.Get(ctx, types.NamespacedName{Namespace: req.Namespace, Name: "token"}, s)
}
