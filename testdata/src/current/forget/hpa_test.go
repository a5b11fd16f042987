package forget

import (
	"time"

	"k8s.io/client-go/util/workqueue"
)

// spyQueue wraps a queue built with the HPA's fixed-interval limiter and
// records what is added, shaped like kubernetes v1.37's podautoscaler test
// spyWorkQueue (newTestEnqueueController hands it to the controller). It
// keeps the limiter's Forget: the HPA's queue stays stateless: silent.
type spyQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	added []string
}

func newSpyQueue() *spyQueue {
	return &spyQueue{TypedRateLimitingInterface: workqueue.NewTypedRateLimitingQueueWithConfig(newHPALimiter(time.Minute),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "test-spy"})}
}

func (s *spyQueue) Add(key string) {
	s.added = append(s.added, key)
	s.TypedRateLimitingInterface.Add(key)
}

func newTestHPA(spy *spyQueue) *HPA {
	return &HPA{queue: spy}
}

// A controller whose test hands it a queue with the client-go default
// (per-key) limiter: its never-forgotten keys leak: reported.
type Autoscaler struct {
	queue workqueue.TypedRateLimitingInterface[string]
	sync  func(string) (deleted bool, err error)
}

func NewAutoscaler() *Autoscaler {
	return &Autoscaler{queue: workqueue.NewTypedRateLimitingQueueWithConfig(newHPALimiter(15*time.Second),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "autoscaler"})}
}

type countingQueue struct {
	workqueue.TypedRateLimitingInterface[string]
}

func newTestAutoscaler() *Autoscaler {
	return &Autoscaler{queue: &countingQueue{workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}}
}

// processNextWorkItem re-queues a live key and returns where the deleted
// one does: with the default limiter the deleted key leaks. No fix: a
// Forget before the shared return would also follow the AddRateLimited.
func (a *Autoscaler) processNextWorkItem() bool {
	key, quit := a.queue.Get()
	if quit {
		return false
	}
	defer a.queue.Done(key)
	deleted, _ := a.sync(key)
	if !deleted {
		a.queue.AddRateLimited(key)
	}
	return true // want `key from a.queue.Get\(\) is neither forgotten nor re-queued on this path`
}
