// Package sharedowner holds owner references set by a controller written
// against client-go v0.30, for the sharedowner analyzer.
package sharedowner

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	batchlisters "k8s.io/client-go/listers/batch/v1"
)

var cronJobKind = batchv1.SchemeGroupVersion.WithKind("CronJob")

type Controller struct {
	jobLister batchlisters.JobLister
}

func (c *Controller) newJob(cj *batchv1.CronJob) *batchv1.Job {
	job := &batchv1.Job{}
	job.Name = "nightly" // every CronJob would own the same Job
	job.Namespace = cj.Namespace
	job.SetOwnerReferences([]metav1.OwnerReference{*metav1.NewControllerRef(cj, cronJobKind)}) // want `owned Job has the fixed name "nightly": every CronJob claims the same object`
	return job
}

func (c *Controller) goodJob(cj *batchv1.CronJob) *batchv1.Job {
	return &batchv1.Job{ObjectMeta: metav1.ObjectMeta{
		Name:            cj.Name + "-job",
		Namespace:       cj.Namespace,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(cj, cronJobKind)},
	}}
}

func (c *Controller) storageClass(cj *batchv1.CronJob) *storagev1.StorageClass {
	return &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{
		Name:            cj.Namespace + "-" + cj.Name,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(cj, cronJobKind)}, // want `cluster-scoped StorageClass gets an owner reference to namespaced CronJob`
	}}
}

func (c *Controller) adoptJob(cj *batchv1.CronJob) (*batchv1.Job, error) {
	job, err := c.jobLister.Jobs(cj.Namespace).Get(cj.Name)
	if err != nil {
		return nil, err
	}
	job = job.DeepCopy()
	job.OwnerReferences = append(job.OwnerReferences, *metav1.NewControllerRef(cj, cronJobKind)) // want `an existing Job read from a cache or the API server gets a controller reference without checking who controls it`
	return job, nil
}

func (c *Controller) configInKubeSystem(cj *batchv1.CronJob) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name:            cj.Name,
		Namespace:       "kube-system",
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(cj, cronJobKind)}, // want `owned ConfigMap is placed in the fixed namespace "kube-system"`
	}}
}
