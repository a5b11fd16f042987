// This file is shaped on the kubebuilder book's CronJob controller
// (docs/book/src/cronjob-tutorial/testdata/project/internal/controller/
// cronjob_controller.go, kubernetes-sigs/kubebuilder at 0343aa6d): the
// markers in their own comment block above Reconcile, which lists the
// child Jobs, updates the CronJob's status, deletes old Jobs and creates
// the next one. Here the jobs marker was written without delete, as in the
// reports of kubebuilder#3105 ("jobs.batch is forbidden"): the deletes of
// old Jobs are refused.

// Package rbacmarkers holds the rbacmarkers fixtures.
package rbacmarkers

import (
	"context"
	"sort"

	kbatch "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	batchv1 "example.com/current/rbacmarkers/api/v1"
)

// CronJobReconciler reconciles a CronJob object.
type CronJobReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs/finalizers,verbs=update
// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=schedpolicies,verbs=get;list;watch
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch
// +kubebuilder:rbac:groups=batch,resources=jobs/status,verbs=get

var jobOwnerKey = ".metadata.controller"

// Reconcile lists the CronJob's Jobs, records the active ones in its
// status, deletes the successful Jobs beyond the history limit and starts
// the next run.
func (r *CronJobReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cronJob batchv1.CronJob
	if err := r.Get(ctx, req.NamespacedName, &cronJob); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var policy batchv1.SchedulePolicy
	if err := r.Get(ctx, client.ObjectKey{Name: "default"}, &policy); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}

	var childJobs kbatch.JobList
	if err := r.List(ctx, &childJobs, client.InNamespace(req.Namespace), client.MatchingFields{jobOwnerKey: req.Name}); err != nil {
		return ctrl.Result{}, err
	}
	var successful []*kbatch.Job
	for i := range childJobs.Items {
		if childJobs.Items[i].Status.Succeeded > 0 {
			successful = append(successful, &childJobs.Items[i])
		}
	}

	cronJob.Status.LastScheduleTime = &metav1.Time{Time: metav1.Now().Time}
	if err := r.Status().Update(ctx, &cronJob); err != nil {
		return ctrl.Result{}, err
	}

	if limit := cronJob.Spec.SuccessfulJobsHistoryLimit; limit != nil {
		sort.Slice(successful, func(i, j int) bool {
			return successful[i].CreationTimestamp.Before(&successful[j].CreationTimestamp)
		})
		for i, job := range successful {
			if int32(i) >= int32(len(successful))-*limit {
				break
			}
			if err := r.Delete(ctx, job, client.PropagationPolicy(metav1.DeletePropagationBackground)); err != nil { // want `r\.Delete deletes a Job, and no \+kubebuilder:rbac marker grants delete on jobs\.batch: the API server refuses the call under the role controller-gen generates; add // \+kubebuilder:rbac:groups=batch,resources=jobs,verbs=delete`
				return ctrl.Result{}, err
			}
		}
	}

	if cronJob.Spec.Suspend != nil && *cronJob.Spec.Suspend {
		return ctrl.Result{}, nil
	}
	job, err := r.constructJob(&cronJob)
	if err != nil {
		return ctrl.Result{}, nil
	}
	if err := r.Create(ctx, job); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// constructJob builds the Job of the next run, owned by the CronJob.
func (r *CronJobReconciler) constructJob(cronJob *batchv1.CronJob) (*kbatch.Job, error) {
	job := &kbatch.Job{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: cronJob.Name + "-",
			Namespace:    cronJob.Namespace,
		},
	}
	if err := ctrl.SetControllerReference(cronJob, job, r.Scheme); err != nil {
		return nil, err
	}
	return job, nil
}

// SetupWithManager indexes the Jobs by owner and watches CronJobs and the
// Jobs they own.
func (r *CronJobReconciler) SetupWithManager(mgr ctrl.Manager) error {
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), &kbatch.Job{}, jobOwnerKey, func(rawObj client.Object) []string {
		owner := metav1.GetControllerOf(rawObj)
		if owner == nil || owner.Kind != "CronJob" {
			return nil
		}
		return []string{owner.Name}
	}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&batchv1.CronJob{}).
		Owns(&kbatch.Job{}).
		Named("cronjob").
		Complete(r)
}
