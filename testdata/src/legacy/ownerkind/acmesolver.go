package ownerkind

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	cmacme "example.com/legacy/ownerkind/api/acme/v1alpha2"
	"example.com/legacy/ownerkind/api/certmanager/v1alpha2"
)

// Solver is cert-manager's HTTP01 solver at v0.13.0
// (pkg/issuer/acme/http/http.go and pod.go): the Challenge moved to the
// ACME group, but challengeGvk still named the main group, so the solver
// pods' owner references named a kind the garbage collector never finds,
// and it deleted them (fixed in v0.13.1, commit 02ae799, "Fix
// ownerReference GVK used during HTTP01 challenge solving"). Both groups
// are constants of packages the controller does not import.
type Solver struct{}

var challengeGvk = v1alpha2.SchemeGroupVersion.WithKind("Challenge")

func (s *Solver) buildDefaultPod(ch *cmacme.Challenge) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName:    "cm-acme-http-solver-",
			Namespace:       ch.Namespace,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ch, challengeGvk)}, // want `owner reference names Challenge.cert-manager.io but its owner ch is a \*v1alpha2.Challenge \(Challenge.acme.cert-manager.io\)`
		},
	}
}

// fixedGvk is v0.13.1's: the ACME group's version. Silent.
var fixedGvk = cmacme.SchemeGroupVersion.WithKind("Challenge")

func (s *Solver) buildFixedPod(ch *cmacme.Challenge) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       ch.Namespace,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ch, fixedGvk)},
		},
	}
}
