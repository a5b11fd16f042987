// Package tracked is a module's shared queue wrapper that records how long
// each key was processed, as operators that wrap client-go's work queue
// for their metrics do (the wrapper owns the queue; workers hand it keys).
package tracked

import (
	"time"

	"k8s.io/client-go/util/workqueue"
)

// Queue wraps a work queue with processing-time tracking.
type Queue struct {
	Q       workqueue.TypedRateLimitingInterface[string]
	started map[string]time.Time
}

// Finish marks the key Done, whatever happened: every path settles it.
func (q *Queue) Finish(key string) {
	delete(q.started, key)
	q.Q.Done(key)
}

// FinishIfSynced marks the key Done only when the sync succeeded, and
// leaves a failed key processing for the caller to finish.
func (q *Queue) FinishIfSynced(key string, err error) {
	if err != nil {
		return
	}
	q.Q.Done(key)
}
