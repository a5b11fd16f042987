package workloop

import (
	"fmt"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/util/workqueue"
)

// An Option configures a Controller.
type Option[K comparable] func(*options[K])

type options[K comparable] struct {
	maxRetries   int
	rateLimiter  workqueue.TypedRateLimiter[K]
	metrics      workqueue.MetricsProvider
	drainTimeout time.Duration
	onGiveUp     func(key K, err error)
	leader       *LeaderElection
}

func defaults[K comparable]() options[K] {
	return options[K]{
		maxRetries:  15,
		rateLimiter: workqueue.DefaultTypedControllerRateLimiter[K](),
		onGiveUp: func(key K, err error) {
			utilruntime.HandleError(fmt.Errorf("giving up on %v: %w", key, err))
		},
	}
}

// WithMaxRetries sets how many times a failing key is retried before the
// controller gives up on it (default 15, about 8 minutes of backoff).
func WithMaxRetries[K comparable](n int) Option[K] {
	return func(o *options[K]) { o.maxRetries = n }
}

// WithRateLimiter replaces the default per-item exponential and overall
// token-bucket rate limiter.
func WithRateLimiter[K comparable](rl workqueue.TypedRateLimiter[K]) Option[K] {
	return func(o *options[K]) { o.rateLimiter = rl }
}

// WithMetricsProvider exports the queue's depth, latency, work duration and
// retries through client-go's workqueue metrics provider.
func WithMetricsProvider[K comparable](p workqueue.MetricsProvider) Option[K] {
	return func(o *options[K]) { o.metrics = p }
}

// WithDrainTimeout bounds how long in-flight syncs may run after shutdown
// begins before their context is cancelled (default: no bound).
func WithDrainTimeout[K comparable](d time.Duration) Option[K] {
	return func(o *options[K]) { o.drainTimeout = d }
}

// OnGiveUp is called when a key has failed more than the retry limit; the
// key is already forgotten.
func OnGiveUp[K comparable](f func(key K, err error)) Option[K] {
	return func(o *options[K]) { o.onGiveUp = f }
}
