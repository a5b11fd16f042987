package queuedone

import (
	"reflect"
	"testing"
	"time"
)

// Tests that drain a queue to compare what it held, shaped like
// cert-manager's ingress-shim controller_test.go (take keys until the
// queue is shut down): the loop only takes and collects: silent.
func TestCollectUntilShutDown(t *testing.T) {
	c := newTestController()
	c.queue.Add("default/a")
	time.AfterFunc(50*time.Millisecond, c.queue.ShutDown)
	var got []interface{}
	for {
		key, done := c.queue.Get()
		if done {
			break
		}
		got = append(got, key)
	}
	if !reflect.DeepEqual(got, []interface{}{"default/a"}) {
		t.Errorf("got %v", got)
	}
}
