// This file is shaped on a kubebuilder controller that reads the API token
// Secret its sender configuration names (momchilosavic/mailerlite,
// internal/controller/email_controller.go), whose marker grants secrets
// only get, as many do (a search of public code finds
// `groups="",resources=secrets,verbs=get` above reconcilers that read
// through the manager's client): the manager's client reads Secrets from
// its cache, whose informer lists and watches them. A read through the
// API reader needs only get.

package rbacmarkers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// EmailReconciler sends the Emails it is given with a token from a Secret.
type EmailReconciler struct {
	client.Client
	// APIReader reads around the cache (mgr.GetAPIReader()).
	APIReader client.Reader
}

// +kubebuilder:rbac:groups="",resources=secrets,verbs=get
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get

// Reconcile reads the token and the sender's settings.
func (r *EmailReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	secret := &corev1.Secret{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: "api-token"}, secret); err != nil { // want `r\.Get reads a Secret, and no \+kubebuilder:rbac marker grants list and watch on secrets: the manager's client serves it from its cache, whose informer lists and watches: the informer cannot sync, and the read waits until its context ends; add // \+kubebuilder:rbac:groups="",resources=secrets,verbs=list;watch`
		return ctrl.Result{}, err
	}
	// The API reader reads from the API server: get is all it needs.
	settings := &corev1.ConfigMap{}
	if err := r.APIReader.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: "sender"}, settings); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// refreshToken reads the Secret again through the API reader the manager
// hands out: no informer.
func refreshToken(ctx context.Context, mgr ctrl.Manager, key client.ObjectKey) (*corev1.Secret, error) {
	secret := &corev1.Secret{}
	return secret, mgr.GetAPIReader().Get(ctx, key, secret)
}

// TokenLister lists tokens through a reader the manager hands it, which
// may read from the cache or not: a list needs list either way.
type TokenLister struct {
	Reader client.Reader
}

func (l *TokenLister) list(ctx context.Context, ns string) (*corev1.SecretList, error) {
	var list corev1.SecretList
	return &list, l.Reader.List(ctx, &list, client.InNamespace(ns)) // want `l\.Reader\.List lists Secrets, and no \+kubebuilder:rbac marker grants list on secrets: the API server refuses the call`
}

// readSettings reads through a client it is handed, which may be any
// cluster's: not checked.
func readSettings(ctx context.Context, c client.Client, key client.ObjectKey) error {
	return c.Get(ctx, key, &corev1.ConfigMap{})
}
