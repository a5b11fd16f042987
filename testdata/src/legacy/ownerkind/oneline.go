package ownerkind

import (
	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The whole reference on one line, as generated-looking builders write it.
func configFor(set *apps.StatefulSet) *v1.ConfigMap {
	return &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: set.Name, OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: set.Name, UID: set.UID}}}} // want `owner reference names Deployment.apps but its owner set is a \*v1.StatefulSet`
}
