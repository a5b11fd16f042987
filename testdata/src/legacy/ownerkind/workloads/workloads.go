// Package workloads holds correct look-alikes of kubernetes'
// pkg/controller (v1.30), on client-go v0.30.
package workloads

import (
	apps "k8s.io/api/apps/v1"
	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var controllerKind = batch.SchemeGroupVersion.WithKind("Job")

// job/job_controller.go's pod creation.
func newJobPod(job *batch.Job) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(job, controllerKind)},
	}}
}

// cronjob/utils.go's getJobFromTemplate2, with a kind of its own.
var cronKind = schema.FromAPIVersionAndKind("batch/v1", "CronJob")

func getJobFromTemplate(cj *batch.CronJob) *batch.Job {
	return &batch.Job{ObjectMeta: metav1.ObjectMeta{
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(cj, cronKind)},
	}}
}

// replicaset's manageReplicas with the kind in a field (the replication
// manager's ReplicationController): not followed.
type ReplicaSetController struct {
	schema.GroupVersionKind
}

func (rsc *ReplicaSetController) newPod(rs *apps.ReplicaSet) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(rs, rsc.GroupVersionKind)},
	}}
}

// An interface owner is unknown.
func refTo(owner metav1.Object) *metav1.OwnerReference {
	return metav1.NewControllerRef(owner, apps.SchemeGroupVersion.WithKind("Deployment"))
}

// The owner's own TypeMeta: run-time values.
func refFromTypeMeta(d *apps.Deployment) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: d.APIVersion, Kind: d.Kind, Name: d.Name, UID: d.UID}
}
