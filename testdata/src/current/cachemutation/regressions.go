package cachemutation

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	batchlisters "k8s.io/client-go/listers/batch/v1"
	"k8s.io/client-go/tools/cache"
)

// Shapes from kubernetes' pkg/controller that must stay silent.

// backoffStore keeps the controller's own records in a cache.Store, like
// the Job controller's pod backoff store: they are no API objects.
type backoffRecord struct {
	key      string
	failures int32
}

type backoffStore struct {
	store cache.Store
}

func (s *backoffStore) update(record backoffRecord) error {
	b, ok, err := s.store.GetByKey(record.key)
	if err != nil {
		return err
	}
	if !ok {
		return s.store.Add(&record)
	}
	r := b.(*backoffRecord)
	r.failures = record.failures
	return nil
}

// syncCtx holds a cached object beside counters of its own, like the Job
// controller's syncJobCtx: writing to the counters is not a write to the
// object.
type syncCtx struct {
	job         *batchv1.Job
	terminating *int32
	active      int32
}

type JobController struct {
	jobLister batchlisters.JobLister
}

func (c *JobController) sync(ns, name string, pods []*corev1.Pod) error {
	job, err := c.jobLister.Jobs(ns).Get(name)
	if err != nil {
		return err
	}
	ctx := &syncCtx{job: job, terminating: int32Ptr(int32(len(pods)))}
	*ctx.terminating += 1
	ctx.active = 2
	ctx.job.Status.Active = ctx.active // want `job from c\.jobLister\.Jobs\(ns\)\.Get is modified \(ctx\.job\.Status\.Active = \.\.\.\)`
	return nil
}

// newest returns a copy, or nil: on the nil branch nothing is cached.
func (c *JobController) newest(ns string) (all []*batchv1.Job, newest *batchv1.Job, err error) {
	jobs, err := c.jobLister.Jobs(ns).List(labels.Everything())
	if err != nil {
		return nil, nil, err
	}
	for _, j := range jobs {
		if newest == nil || j.CreationTimestamp.After(newest.CreationTimestamp.Time) {
			newest = j
		}
		all = append(all, j.DeepCopy())
	}
	if newest != nil {
		newest = newest.DeepCopy()
	}
	return all, newest, nil
}

func (c *JobController) promote(ns string) error {
	all, newest, err := c.newest(ns)
	if err != nil || newest == nil {
		return err
	}
	newest.Spec.Suspend = boolPtr(false)
	for _, j := range all {
		j.Labels = nil
	}
	return nil
}

func int32Ptr(i int32) *int32 { return &i }

func boolPtr(b bool) *bool { return &b }
