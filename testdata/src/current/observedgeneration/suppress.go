package observedgeneration

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// backendReachable reports on the backend, not the spec: suppressed, with
// a reason.
func backendReachable(obj *RemoteProxy, up bool) {
	status := metav1.ConditionFalse
	if up {
		status = metav1.ConditionTrue
	}
	meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: "BackendReachable", Status: status, Reason: "Probed"}) //ctrllint:ignore observedgeneration the condition reports the backend's reachability, which no spec change makes stale; no client waits on its generation
}
