package unwatched

import (
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// backupJob is run once per Memcached; its owner reference is there for
// garbage collection only, and the reason says so.
func (r *MemcachedReconciler) backupJob(m *Memcached) (*batchv1.Job, error) {
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: m.Name + "-backup", Namespace: m.Namespace}}
	//ctrllint:ignore unwatched the Job runs once; the reference is for garbage collection only
	if err := controllerutil.SetControllerReference(m, job, r.Scheme); err != nil {
		return nil, err
	}
	return job, nil
}
