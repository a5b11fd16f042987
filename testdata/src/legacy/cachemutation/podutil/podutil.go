// Package podutil holds helpers that write to their arguments, for the
// cachemutation analyzer's cross-package summaries.
package podutil

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// SetNodeCondition is written like kubernetes pkg/api/v1/pod,
// UpdatePodCondition, for a node: it changes the conditions of the status
// it is handed a pointer to.
func SetNodeCondition(status *corev1.NodeStatus, cond corev1.NodeCondition) { // want SetNodeCondition:`params\(0/1: writes status\.Conditions\[\.\.\.\] = \.\.\. at podutil/podutil\.go:16; 0/2: writes status\.Conditions\[\.\.\.\] = \.\.\. at podutil/podutil\.go:16\)`
	for i := range status.Conditions {
		if status.Conditions[i].Type == cond.Type {
			status.Conditions[i] = cond
			return
		}
	}
	status.Conditions = append(status.Conditions, cond)
}

// Scale writes the replica count of each replica set it is given: the
// scaling of kubernetes' deployment controller (scaleReplicaSet) without
// its copy.
func Scale(sets []*appsv1.ReplicaSet, replicas int32) { // want Scale:`params\(0/1: writes rs\.Spec\.Replicas = \.\.\. at podutil/podutil\.go:28; 0/2: writes rs\.Spec\.Replicas = \.\.\. at podutil/podutil\.go:28\)`
	for _, rs := range sets {
		rs.Spec.Replicas = &replicas
	}
}

// ScaleCopies copies each replica set before it changes, as kubernetes'
// deployment controller does (scaleReplicaSet: rsCopy := rs.DeepCopy()):
// silent.
func ScaleCopies(sets []*appsv1.ReplicaSet, replicas int32) []*appsv1.ReplicaSet {
	out := make([]*appsv1.ReplicaSet, 0, len(sets))
	for _, rs := range sets {
		rs = rs.DeepCopy()
		rs.Spec.Replicas = &replicas
		out = append(out, rs)
	}
	return out
}
