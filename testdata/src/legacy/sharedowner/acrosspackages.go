package sharedowner

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/legacy/sharedowner/ownerref"
)

// Owner references built by the module's helpers (package ownerref) and
// carried by the children of a CronJob.

// persistentVolumeViaHelper: a cluster-scoped child carries the reference
// a helper built for its namespaced owner.
func (c *Controller) persistentVolumeViaHelper(cj *batchv1.CronJob) *corev1.PersistentVolume {
	ownerRef := ownerref.GetCronJobOwnerRef(cj)
	return &corev1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{
		Name:            cj.Namespace + "-" + cj.Name,
		OwnerReferences: []metav1.OwnerReference{*ownerRef}, // want `cluster-scoped PersistentVolume gets an owner reference to namespaced CronJob`
	}}
}

// fixedNameViaHelper: a plain reference on a Job of fixed name.
func (c *Controller) fixedNameViaHelper(cj *batchv1.CronJob) *batchv1.Job {
	job := &batchv1.Job{}
	job.Name = "nightly"
	job.Namespace = cj.Namespace
	job.OwnerReferences = append(job.OwnerReferences, ownerref.OwnerReferenceTo(cj, cronJobKind)) // want `owned Job has the fixed name "nightly": every CronJob claims the same object`
	return job
}

// namespaceViaSetter: the helper sets the reference on its argument.
func (c *Controller) namespaceViaSetter(cj *batchv1.CronJob) *corev1.Namespace {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: cj.Namespace + "-" + cj.Name}}
	ownerref.SetControllerOwner(ns, cj, cronJobKind) // want `cluster-scoped Namespace gets an owner reference to namespaced CronJob`
	return ns
}

// Silent: a Job named after its CronJob in its namespace, and a reference
// to the CronJob's own controller.
func (c *Controller) jobsViaHelpers(cj *batchv1.CronJob) []*batchv1.Job {
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{
		Name:            cj.Name + "-1",
		Namespace:       cj.Namespace,
		OwnerReferences: []metav1.OwnerReference{*ownerref.GetCronJobOwnerRef(cj)},
	}}
	other := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: cj.Name + "-2", Namespace: cj.Namespace}}
	ownerref.SetControllerOwner(other, cj, cronJobKind)
	pv := &corev1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: cj.Name}}
	if ref := ownerref.ControllerOf(cj); ref != nil {
		pv.OwnerReferences = []metav1.OwnerReference{*ref}
	}
	return []*batchv1.Job{job, other}
}
