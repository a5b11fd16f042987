package cachesync

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// Tests start workers on fake informers without waiting, on purpose:
// silent.
func TestWorkerWithoutSync(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &Controller{}
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
}
