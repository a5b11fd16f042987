package sharedowner

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Children named after an object their owner references, not after the
// owner: two owners that reference the same object claim the same child.

var ingressKind = networkingv1.SchemeGroupVersion.WithKind("Ingress")

// Certificate stands for cert-manager's Certificate.
type Certificate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              CertificateSpec
}

type CertificateSpec struct {
	SecretName string
	DNSNames   []string
}

// certificatesForIngress is shaped on cert-manager's ingress-shim
// (pkg/controller/certificate-shim/sync.go, buildCertificates): one
// Certificate per TLS block, named after the block's Secret and controlled
// by the Ingress. Two Ingresses that list the same secretName claim one
// Certificate. cert-manager itself checks metav1.IsControlledBy before
// touching an existing one (below, silent); without that check: reported.
func certificatesForIngress(ing *networkingv1.Ingress) []*Certificate {
	var crts []*Certificate
	for _, tls := range ing.Spec.TLS {
		crts = append(crts, &Certificate{
			ObjectMeta: metav1.ObjectMeta{
				Name:            tls.SecretName,
				Namespace:       ing.Namespace,
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ing, ingressKind)}, // want `owned Certificate is named after another object \(tls.SecretName\), not after its Ingress owner: every Ingress that references the same object claims the same Certificate`
			},
			Spec: CertificateSpec{SecretName: tls.SecretName, DNSNames: tls.Hosts},
		})
	}
	return crts
}

// certificatesForIngressChecked refuses an existing Certificate another
// Ingress controls, as cert-manager's buildCertificates does: the sharing
// is handled. Silent.
func certificatesForIngressChecked(ing *networkingv1.Ingress, existing map[string]*Certificate) []*Certificate {
	refs := map[corev1.ObjectReference][]string{}
	for _, tls := range ing.Spec.TLS {
		refs[corev1.ObjectReference{Namespace: ing.Namespace, Name: tls.SecretName}] = tls.Hosts
	}
	var crts []*Certificate
	for secretRef, hosts := range refs {
		if old := existing[secretRef.Name]; old != nil && !metav1.IsControlledBy(old, ing) {
			continue // another Ingress's Certificate: leave it alone
		}
		crts = append(crts, &Certificate{
			ObjectMeta: metav1.ObjectMeta{
				Name:            secretRef.Name,
				Namespace:       secretRef.Namespace,
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ing, ingressKind)},
			},
			Spec: CertificateSpec{SecretName: secretRef.Name, DNSNames: hosts},
		})
	}
	return crts
}

// SecretRedirect copies a database Secret it references into a Secret of
// derived keys.
//
// +kubebuilder:object:root=true
type SecretRedirect struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              SecretRedirectSpec
}

type SecretRedirectSpec struct {
	SecretName string // the Secret to read
	CARef      corev1.LocalObjectReference
}

func (s *SecretRedirect) DeepCopyObject() runtime.Object {
	c := *s
	s.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

type RedirectReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// Reconcile is shaped on SindreMA/auto-secret-operator's
// AutoSecretDbSecretRedirect reconciler (controllers, Reconcile and
// reconcileTargetSecret, here in one function): the target Secret is named
// after the source Secret the spec names and read by that name, and the
// redirect controls it. Two redirects of one source Secret share the
// target.
func (r *RedirectReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var redirect SecretRedirect
	if err := r.Get(ctx, req.NamespacedName, &redirect); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var source corev1.Secret
	if err := r.Get(ctx, client.ObjectKey{Name: redirect.Spec.SecretName, Namespace: redirect.Namespace}, &source); err != nil {
		return ctrl.Result{}, err
	}
	target := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: redirect.Spec.SecretName + "-redirect", Namespace: redirect.Namespace},
		Data:       source.Data,
	}
	if err := controllerutil.SetControllerReference(&redirect, target, r.Scheme); err != nil { // want `owned Secret is named after another object \(redirect.Spec.SecretName\), not after its SecretRedirect owner`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Create(ctx, target)
}

// caBundle names the child after the source through Sprintf and a
// variable, as a CA bundle copied out of a referenced Secret: reported.
func (r *RedirectReconciler) caBundle(ctx context.Context, redirect *SecretRedirect) error {
	var ca corev1.Secret
	if err := r.Get(ctx, client.ObjectKey{Name: redirect.Spec.CARef.Name, Namespace: redirect.Namespace}, &ca); err != nil {
		return err
	}
	name := fmt.Sprintf("%s-ca", ca.Name)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: redirect.Namespace}}
	cm.Data = map[string]string{"ca.crt": string(ca.Data["ca.crt"])}
	if err := controllerutil.SetControllerReference(redirect, cm, r.Scheme); err != nil { // want `owned ConfigMap is named after another object \(ca.Name\), not after its SecretRedirect owner`
		return err
	}
	return r.Create(ctx, cm)
}

// The right idioms: silent.

// perOwnerCopy names the copy after the owner and the source together:
// unique per owner.
func (r *RedirectReconciler) perOwnerCopy(ctx context.Context, redirect *SecretRedirect) error {
	name := redirect.Name + "-" + redirect.Spec.CARef.Name
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: redirect.Namespace}}
	if err := controllerutil.SetControllerReference(redirect, cm, r.Scheme); err != nil {
		return err
	}
	return r.Create(ctx, cm)
}

// ownSecret is shaped on cert-manager's SecretsManager.getCertificateSecret
// (pkg/controller/certificates/issuing/internal/secret.go): the Secret
// spec.secretName names is the Certificate's own output, read by that name
// to see whether it exists yet, and created under it.
func (r *RedirectReconciler) ownSecret(ctx context.Context, redirect *SecretRedirect) error {
	var existing corev1.Secret
	err := r.Get(ctx, client.ObjectKey{Name: redirect.Spec.SecretName, Namespace: redirect.Namespace}, &existing)
	if !apierrors.IsNotFound(err) {
		return err
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: redirect.Spec.SecretName, Namespace: redirect.Namespace}}
	if err := controllerutil.SetControllerReference(redirect, secret, r.Scheme); err != nil {
		return err
	}
	return r.Create(ctx, secret)
}

// unreadSpecName builds on a spec string the controller never reads an
// object by: it may be the owner's own output name. Silent.
func (r *RedirectReconciler) unreadSpecName(ctx context.Context, redirect *SecretRedirect) error {
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: redirect.Spec.SecretName + "-tls", Namespace: redirect.Namespace}}
	if err := controllerutil.SetControllerReference(redirect, secret, r.Scheme); err != nil {
		return err
	}
	return r.Create(ctx, secret)
}

// suffixFromCaller adds a part this function cannot trace (a parameter):
// it may be the owner's. Silent.
func (r *RedirectReconciler) suffixFromCaller(ctx context.Context, redirect *SecretRedirect, suffix string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: redirect.Spec.CARef.Name + suffix, Namespace: redirect.Namespace}}
	if err := controllerutil.SetControllerReference(redirect, cm, r.Scheme); err != nil {
		return err
	}
	return r.Create(ctx, cm)
}

// sharedOnPurpose gives the copy a plain owner reference: every owner
// that references the source adds its own, and the garbage collector keeps
// the copy until the last is gone. Silent.
func (r *RedirectReconciler) sharedOnPurpose(ctx context.Context, redirect *SecretRedirect) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: redirect.Spec.CARef.Name + "-ca", Namespace: redirect.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {
		return controllerutil.SetOwnerReference(redirect, cm, r.Scheme)
	}); err != nil {
		return err
	}
	return nil
}
