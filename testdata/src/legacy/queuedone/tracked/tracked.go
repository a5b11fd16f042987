// Package tracked is a module's shared queue wrapper (client-go v0.30's
// untyped queue) that records processing times, as operators that wrap the
// work queue for their metrics do.
package tracked

import "k8s.io/client-go/util/workqueue"

// Queue wraps a work queue.
type Queue struct {
	Q workqueue.RateLimitingInterface
}

// Finish marks the key Done on every path.
func (q *Queue) Finish(key interface{}) { q.Q.Done(key) }

// FinishIfSynced marks the key Done only when the sync succeeded.
func (q *Queue) FinishIfSynced(key interface{}, err error) {
	if err != nil {
		return
	}
	q.Q.Done(key)
}
