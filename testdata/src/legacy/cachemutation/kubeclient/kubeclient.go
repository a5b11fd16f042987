// Package kubeclient wraps listers of client-go v0.30 behind a function
// and an interface of its own, for the cachemutation analyzer's
// cross-package summaries (../xpkg.go calls them).
package kubeclient

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// ReplicaSetsForOwner is a helper of the module that lists for its caller:
// the elements are the lister's objects.
func ReplicaSetsForOwner(lister appslisters.ReplicaSetLister, ns, uid string) ([]*appsv1.ReplicaSet, error) { // want ReplicaSetsForOwner:`returnsCached\(0:lister\.ReplicaSets\(ns\)\.List\)`
	all, err := lister.ReplicaSets(ns).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	var out []*appsv1.ReplicaSet
	for _, rs := range all {
		for _, ref := range rs.OwnerReferences {
			if string(ref.UID) == uid {
				out = append(out, rs)
			}
		}
	}
	return out, nil
}

// NodeByKey reads an untyped indexer and asserts the kind.
func NodeByKey(indexer cache.Indexer, key string) (*corev1.Node, bool) { // want NodeByKey:`returnsCached\(0:indexer\.GetByKey\)`
	obj, exists, err := indexer.GetByKey(key)
	if err != nil || !exists {
		return nil, false
	}
	node, ok := obj.(*corev1.Node)
	return node, ok
}

// ClaimGetter is shaped on kubernetes pkg/controller/statefulset,
// StatefulPodControlObjectManager.GetClaim over the claim lister.
type ClaimGetter interface {
	GetClaim(ns, name string) (*corev1.PersistentVolumeClaim, error) // want GetClaim:`returnsCached\(0:g\.claims\.PersistentVolumeClaims\(ns\)\.Get\)`
}

type listerClaimGetter struct {
	claims corelisters.PersistentVolumeClaimLister
}

func (g *listerClaimGetter) GetClaim(ns, name string) (*corev1.PersistentVolumeClaim, error) { // want GetClaim:`returnsCached\(0:g\.claims\.PersistentVolumeClaims\(ns\)\.Get\)`
	return g.claims.PersistentVolumeClaims(ns).Get(name)
}

// NewClaimGetter returns the lister-backed implementation.
func NewClaimGetter(claims corelisters.PersistentVolumeClaimLister) ClaimGetter {
	return &listerClaimGetter{claims: claims}
}

// FreshClaims builds what it returns: silent for callers.
type FreshClaims interface {
	Claim(ns, name string) (*corev1.PersistentVolumeClaim, error)
}

type templateClaims struct{}

func (templateClaims) Claim(ns, name string) (*corev1.PersistentVolumeClaim, error) {
	c := &corev1.PersistentVolumeClaim{}
	c.Namespace, c.Name = ns, name
	return c, nil
}
