// want package:"cachescope\\(reads \\[Get k8s.io/api/core/v1.Secret at "

// Package controller holds the reconcilers the cachescope fixture's
// managers run. Their reads are reported where the manager is built (the
// cmd packages), which alone knows the manager's cache options.
//
// Shapes:
//   - BackupReconciler: k8ssandra-operator v1.32.5
//     controllers/reaper/reaper_controller.go (an embedded client.Client,
//     a getSecret helper reading the Secret with r.Get; main sets Client:
//     mgr.GetClient()) and controllers/medusa/medusaconfiguration_controller.go
//     (GetSecret taking the client as a parameter);
//   - ServerReconciler: kubernetes-sigs/mcp-lifecycle-operator
//     internal/controller/mcpserver_controller.go (issue #299, PR #305):
//     Watches of ConfigMaps, WatchesMetadata of Secrets whose content
//     computeConfigHash still reads through the cached client, and the
//     Pod list of getPodFailureMessage (PR #204), here behind a
//     ByObject label selector;
//   - the APIReader field of PR #204's review, set from mgr.GetAPIReader();
//   - the Watches of an unstructured CompositeResourceDefinition of
//     TeraSky-OSS/declarative-conversion-operator v0.3.0
//     internal/controller/xrdconversionconfig_controller.go: an informer
//     of its own, which changes nothing for typed reads.
package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Backup is the primary kind of BackupReconciler.
type Backup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BackupSpec `json:"spec"`
}

type BackupSpec struct {
	SecretName string `json:"secretName"`
	ConfigName string `json:"configName"`
}

func (in *Backup) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

// BackupReconciler reads the credentials Secret its Backup names, through
// the manager's cached client: no controller watches Secrets, so the first
// read starts an informer of every Secret of the cluster.
type BackupReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *BackupReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	b := &Backup{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, err := r.getSecret(ctx, types.NamespacedName{Namespace: b.Namespace, Name: b.Spec.SecretName}); err != nil {
		return ctrl.Result{}, err
	}
	if _, err := GetConfig(ctx, r.Client, b.Namespace, b.Spec.ConfigName); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

func (r *BackupReconciler) getSecret(ctx context.Context, key types.NamespacedName) (*corev1.Secret, error) {
	secret := &corev1.Secret{}
	err := r.Get(ctx, key, secret) // reported where the manager is built
	return secret, err
}

// GetConfig reads a ConfigMap with the client it is given; BackupReconciler
// gives it the manager's client. ConfigMaps are watched by ServerReconciler,
// so the read costs no informer of its own.
func GetConfig(ctx context.Context, c client.Client, namespace, name string) (*corev1.ConfigMap, error) {
	cm := &corev1.ConfigMap{}
	err := c.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, cm)
	return cm, err
}

func (r *BackupReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Backup{}).
		Owns(&appsv1.Deployment{}).
		Complete(r)
}

// Server is the primary kind of ServerReconciler.
type Server struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ServerSpec `json:"spec"`
}

type ServerSpec struct {
	ConfigMapName string `json:"configMapName"`
	SecretName    string `json:"secretName"`
}

func (in *Server) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

// ServerReconciler watches ConfigMaps, and Secrets by their metadata only.
type ServerReconciler struct {
	Client    client.Client
	APIReader client.Reader
	Scheme    *runtime.Scheme
}

func (r *ServerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	s := &Server{}
	if err := r.Client.Get(ctx, req.NamespacedName, s); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, err := r.computeConfigHash(ctx, s); err != nil {
		return ctrl.Result{}, err
	}
	msg, err := r.getPodFailureMessage(ctx, s)
	if err != nil || msg == "" {
		return ctrl.Result{}, err
	}
	// Read live through the API reader: no informer.
	sa := &corev1.Secret{}
	if err := r.APIReader.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: s.Name + "-token"}, sa); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, nil
}

func (r *ServerReconciler) computeConfigHash(ctx context.Context, s *Server) (string, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Client.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: s.Spec.ConfigMapName}, cm); err != nil { // watched: silent
		return "", err
	}
	// The Secret watch holds metadata only: this typed read starts a
	// second informer, of every Secret with its data.
	secret := &corev1.Secret{}
	if err := r.Client.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: s.Spec.SecretName}, secret); err != nil {
		return "", err
	}
	return cm.ResourceVersion + secret.ResourceVersion, nil
}

func (r *ServerReconciler) getPodFailureMessage(ctx context.Context, s *Server) (string, error) {
	pods := &corev1.PodList{}
	if err := r.Client.List(ctx, pods, client.InNamespace(s.Namespace), client.MatchingLabels{"app": s.Name}); err != nil {
		return "", err
	}
	for _, p := range pods.Items {
		if p.Status.Phase == corev1.PodFailed {
			return p.Status.Message, nil
		}
	}
	return "", nil
}

func (r *ServerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	xrd := &unstructured.Unstructured{}
	xrd.SetGroupVersionKind(schema.GroupVersionKind{Group: "apiextensions.crossplane.io", Version: "v1", Kind: "CompositeResourceDefinition"})
	return ctrl.NewControllerManagedBy(mgr).
		Watches(xrd, handler.EnqueueRequestsFromMapFunc(r.serversFor)).
		For(&Server{}).
		Owns(&appsv1.Deployment{}).
		Watches(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(r.serversFor)).
		WatchesMetadata(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.serversFor)).
		Complete(r)
}

func (r *ServerReconciler) serversFor(ctx context.Context, obj client.Object) []reconcile.Request {
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}}}
}
