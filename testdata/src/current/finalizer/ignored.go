package finalizer

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

const containerFinalizer = "example.com/container"

// ContainerReconciler's deletion branch is shaped on kdop-operator's
// DockerContainerReconciler.Reconcile (minhtri1612/kdop-operator,
// internal/controller/dockercontainer_controller.go): the container is
// removed from the Docker host with the error assigned to _, and the
// finalizer goes whatever happened. The client's own construction error
// and its Close are no cleanup.
type ContainerReconciler struct {
	client.Client
}

func (r *ContainerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	c := &Container{}
	if err := r.Get(ctx, req.NamespacedName, c); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !c.DeletionTimestamp.IsZero() {
		if controllerutil.ContainsFinalizer(c, containerFinalizer) {
			cli, err := newDocker(ctx, c.Spec.Host)
			if err == nil {
				_ = r.deleteExternalResources(ctx, cli, c)
				_ = cli.Close()
			}
			controllerutil.RemoveFinalizer(c, containerFinalizer) // want `finalizer removed from the Container being deleted though the error of deleteExternalResources \(line 36\) is ignored on the way here: if that cleanup failed, the Container is deleted anyway and what it was to clean up is left behind for good; return the error \(or requeue\) before removing the finalizer`
			return ctrl.Result{}, r.Update(ctx, c)
		}
		return ctrl.Result{}, nil
	}
	if !controllerutil.ContainsFinalizer(c, containerFinalizer) {
		controllerutil.AddFinalizer(c, containerFinalizer)
		return ctrl.Result{}, r.Update(ctx, c)
	}
	return ctrl.Result{}, nil
}

func (r *ContainerReconciler) deleteExternalResources(ctx context.Context, cli Docker, c *Container) error {
	return cli.RemoveContainer(ctx, c.Spec.Name)
}

// UserReconciler is shaped on pocket-id-operator's PocketIDUserReconciler
// (aclerici38/pocket-id-operator, internal/controller/pocketiduser_controller.go
// at commit d2ff0f0, reconcileDelete; reworked before v0.0.1):
// Reconcile hands a deleted user to reconcileDelete, which logs the
// identity provider's error and removes the finalizer anyway. The deletion
// is checked in the caller; reconcileDelete is called from nowhere else.
type UserReconciler struct {
	client.Client
	IdP IdentityProvider
}

func (r *UserReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	user := &Container{}
	if err := r.Get(ctx, req.NamespacedName, user); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !user.DeletionTimestamp.IsZero() {
		return r.reconcileDelete(ctx, user)
	}
	if !controllerutil.ContainsFinalizer(user, containerFinalizer) {
		controllerutil.AddFinalizer(user, containerFinalizer)
		if err := r.Update(ctx, user); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

func (r *UserReconciler) reconcileDelete(ctx context.Context, user *Container) (ctrl.Result, error) {
	log := logf.FromContext(ctx)
	if user.Status.ID != "" {
		if err := r.IdP.DeleteUser(ctx, user.Status.ID); err != nil {
			log.Error(err, "deleting the user from the identity provider failed, removing the finalizer")
		}
	}
	for _, name := range user.Status.Secrets {
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: user.Namespace}}
		if err := r.Delete(ctx, secret); err != nil && !apierrors.IsNotFound(err) {
			log.Error(err, "deleting a secret failed", "secret", name)
		}
	}
	controllerutil.RemoveFinalizer(user, containerFinalizer) // want `finalizer removed from the Container being deleted though the error of DeleteUser \(line 86\) is ignored`
	if err := r.Update(ctx, user); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// WebhookReconciler is shaped on secure-software-supply-chain's
// GitHubWebhookReconciler.handleDeletion (ntlaletsi70/secure-software-supply-chain,
// internal/controller/githubwebhook_controller.go): without a token the
// forge is not called at all (a lookup's error, not reported), and the
// forge's delete error is logged in an if/else before the finalizer goes.
type WebhookReconciler struct {
	client.Client
}

func (r *WebhookReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var hook Container
	if err := r.Get(ctx, req.NamespacedName, &hook); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !hook.DeletionTimestamp.IsZero() {
		return r.handleDeletion(ctx, &hook)
	}
	return ctrl.Result{}, nil
}

func (r *WebhookReconciler) handleDeletion(ctx context.Context, hook *Container) (ctrl.Result, error) {
	logger := logf.FromContext(ctx)
	if controllerutil.ContainsFinalizer(hook, containerFinalizer) {
		if hook.Status.ID != "" {
			forge, err := resolveForge(ctx, hook)
			if err != nil {
				logger.Info("token unavailable during deletion, skipping the forge")
			} else {
				if err := forge.DeleteWebhook(ctx, hook.Spec.Name, 42); err != nil {
					logger.Error(err, "failed to delete webhook", "repository", hook.Spec.Name)
				} else {
					logger.Info("webhook deleted")
				}
			}
		}
		controllerutil.RemoveFinalizer(hook, containerFinalizer) // want `the error of DeleteWebhook \(line 131\) is ignored`
		if err := r.Update(ctx, hook); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}
