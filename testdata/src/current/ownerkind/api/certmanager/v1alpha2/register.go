// Package v1alpha2 is cert-manager's pkg/apis/certmanager/v1alpha2 at
// v0.13: its SchemeGroupVersion takes the group from the parent package's
// constant.
package v1alpha2

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"example.com/current/ownerkind/api/certmanager"
)

var SchemeGroupVersion = schema.GroupVersion{Group: certmanager.GroupName, Version: "v1alpha2"}
