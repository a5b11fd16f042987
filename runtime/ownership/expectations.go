package ownership

import (
	"sync"
	"time"
)

// Expectations remember how many creations and deletions of children a
// controller is waiting to see in its cache, so a sync that runs before the
// cache catches up does not create the same children again (kubernetes'
// ControllerExpectations). An expectation older than the TTL is treated as
// met: a lost watch event must not stall the owner forever.
type Expectations struct {
	ttl time.Duration
	now func() time.Time

	mu sync.Mutex
	m  map[string]*expectation
}

type expectation struct {
	adds, dels int
	at         time.Time
}

// NewExpectations returns expectations that expire after ttl (kubernetes
// uses 5 minutes).
func NewExpectations(ttl time.Duration) *Expectations {
	return &Expectations{ttl: ttl, now: time.Now, m: make(map[string]*expectation)}
}

// Expect records that the owner key is about to create adds and delete dels
// children.
func (e *Expectations) Expect(key string, adds, dels int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.m[key] = &expectation{adds: adds, dels: dels, at: e.now()}
}

// CreationObserved is called from the child informer's add handler.
func (e *Expectations) CreationObserved(key string) { e.observe(key, -1, 0) }

// DeletionObserved is called from the child informer's delete handler.
func (e *Expectations) DeletionObserved(key string) { e.observe(key, 0, -1) }

// Lower takes back expectations for actions that failed (a create the API
// server refused will never be observed).
func (e *Expectations) Lower(key string, adds, dels int) { e.observe(key, -adds, -dels) }

func (e *Expectations) observe(key string, adds, dels int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.m[key]; ok {
		x.adds += adds
		x.dels += dels
	}
}

// Satisfied reports whether the owner key may act: nothing is expected, all
// of it was observed, or the expectation expired.
func (e *Expectations) Satisfied(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.m[key]
	switch {
	case !ok:
		return true
	case x.adds <= 0 && x.dels <= 0:
		return true
	case e.now().Sub(x.at) > e.ttl:
		return true
	}
	return false
}

// Forget drops the owner key's expectations (the owner was deleted).
func (e *Expectations) Forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.m, key)
}
