package workloop_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/ctrllint/ctrllint/runtime/eventhandler"
	"github.com/ctrllint/ctrllint/runtime/readmodifywrite"
	"github.com/ctrllint/ctrllint/runtime/workloop"
)

// Fault tests: a controller fed by a real ConfigMap informer over a fake
// clientset whose reactors inject the API server's failures.

// informed runs a controller over client's ConfigMaps with one worker
// until stop is called; stop cancels Run and waits for it.
func informed(t *testing.T, client *fake.Clientset, sync workloop.Sync[eventhandler.Key], opts ...workloop.Option[eventhandler.Key]) (c *workloop.Controller[eventhandler.Key], stop func()) {
	t.Helper()
	factory := informers.NewSharedInformerFactory(client, 0)
	cms := factory.Core().V1().ConfigMaps()
	c, err := workloop.New("faults", sync, []cache.DoneChecker{cms.Informer().HasSyncedChecker()}, append([]workloop.Option[eventhandler.Key]{fast[eventhandler.Key]()}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cms.TypedInformer().AddTypedEventHandler(eventhandler.Enqueue[*corev1.ConfigMap](c.Enqueue)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, 1) }()
	return c, func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Run did not return within 10s of cancellation")
		}
		factory.Shutdown()
	}
}

var cmKey = eventhandler.Key{Namespace: "ns", Name: "cm"}

// setData is a sync that writes data into the live ConfigMap through
// readmodifywrite.Update, the runtime's read-modify-write.
func setData(client *fake.Clientset) workloop.Sync[eventhandler.Key] {
	return func(ctx context.Context, key eventhandler.Key) error {
		cms := client.CoreV1().ConfigMaps(key.Namespace)
		return readmodifywrite.Update(ctx,
			func(ctx context.Context) (*corev1.ConfigMap, error) {
				return cms.Get(ctx, key.Name, metav1.GetOptions{})
			},
			func(cm *corev1.ConfigMap) (bool, error) {
				if cm.Data["synced"] == "yes" {
					return false, nil
				}
				cm.Data = map[string]string{"synced": "yes"}
				return true, nil
			},
			func(ctx context.Context, cm *corev1.ConfigMap) error {
				_, err := cms.Update(ctx, cm, metav1.UpdateOptions{})
				return err
			})
	}
}

func landed(client *fake.Clientset) bool {
	cm, err := client.CoreV1().ConfigMaps("ns").Get(context.Background(), "cm", metav1.GetOptions{})
	return err == nil && cm.Data["synced"] == "yes"
}

// TestConflictsNeverStop: every update conflicts. readmodifywrite.Update's retry
// budget runs out and surfaces the conflict; the controller retries the
// key up to its limit and gives up with that error, leaving nothing in the
// rate limiter.
func TestConflictsNeverStop(t *testing.T) {
	client := configMaps("cm")
	var updates atomic.Int32
	client.PrependReactor("update", "configmaps", func(k8stesting.Action) (bool, runtime.Object, error) {
		updates.Add(1)
		return true, nil, apierrors.NewConflict(corev1.Resource("configmaps"), "cm", errors.New("someone else wrote it"))
	})
	gaveUp := make(chan error, 1)
	c, stop := informed(t, client, setData(client), workloop.WithMaxRetries[eventhandler.Key](2),
		workloop.OnGiveUp(func(_ eventhandler.Key, err error) { gaveUp <- err }))
	defer stop()
	select {
	case err := <-gaveUp:
		if !apierrors.IsConflict(err) {
			t.Errorf("gave up with %v, want the conflict", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the controller never gave up on a key whose updates always conflict")
	}
	// retry.DefaultRetry makes 5 attempts per sync; 1 sync + 2 retries.
	if got := updates.Load(); got != 15 {
		t.Errorf("%d updates, want 3 syncs of 5 attempts", got)
	}
	eventually(t, "the key to be forgotten", func() bool { return c.NumRequeues(cmKey) == 0 })
}

// TestRetryAfter: the API server refuses with 429 Too Many Requests and
// Retry-After: 1. The retry waits the second asked for, not the rate
// limiter's milliseconds, and then lands.
func TestRetryAfter(t *testing.T) {
	client := configMaps("cm")
	var mu sync.Mutex
	var refused time.Time
	var retried time.Duration
	var updates atomic.Int32
	client.PrependReactor("update", "configmaps", func(k8stesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		switch updates.Add(1) {
		case 1:
			refused = time.Now()
			return true, nil, apierrors.NewTooManyRequests("the server is busy", 1)
		case 2:
			retried = time.Since(refused)
		}
		return false, nil, nil
	})
	_, stop := informed(t, client, setData(client))
	defer stop()
	eventually(t, "the update after the 429", func() bool { return landed(client) })
	mu.Lock()
	defer mu.Unlock()
	if retried < time.Second {
		t.Errorf("retried %v after a 429 with Retry-After: 1s", retried)
	}
	t.Logf("retried %v after the 429", retried.Round(time.Millisecond))
}

// TestListErrors: the informer's List fails with a 500 and then a timeout.
// No sync runs before the cache has synced, and once it has the key is
// synced: nothing is lost.
func TestListErrors(t *testing.T) {
	client := configMaps("cm")
	var lists atomic.Int32
	client.PrependReactor("list", "configmaps", func(k8stesting.Action) (bool, runtime.Object, error) {
		switch lists.Add(1) {
		case 1:
			return true, nil, apierrors.NewInternalError(errors.New("etcd is unavailable"))
		case 2:
			return true, nil, apierrors.NewTimeoutError("the list timed out", 0)
		}
		return false, nil, nil
	})
	var early atomic.Bool
	synced := make(chan eventhandler.Key, 1)
	_, stop := informed(t, client, func(_ context.Context, key eventhandler.Key) error {
		if lists.Load() < 3 {
			early.Store(true)
		}
		synced <- key
		return nil
	})
	defer stop()
	select {
	case key := <-synced:
		if key != cmKey {
			t.Errorf("synced %v", key)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the key was never synced after the List errors")
	}
	if early.Load() {
		t.Error("a sync ran before a List had succeeded")
	}
}

// TestGetErrors: the sync's live read fails with a timeout and a 500. The
// error is surfaced, the key retried, and the write lands.
func TestGetErrors(t *testing.T) {
	client := configMaps("cm")
	var gets atomic.Int32
	client.PrependReactor("get", "configmaps", func(k8stesting.Action) (bool, runtime.Object, error) {
		switch gets.Add(1) {
		case 1:
			return true, nil, apierrors.NewTimeoutError("the read timed out", 0)
		case 2:
			return true, nil, apierrors.NewInternalError(errors.New("etcd is unavailable"))
		}
		return false, nil, nil
	})
	c, stop := informed(t, client, setData(client))
	defer stop()
	eventually(t, "the write after the read errors", func() bool { return landed(client) })
	if gets.Load() < 3 {
		t.Errorf("%d reads: the faults were not exercised", gets.Load())
	}
	eventually(t, "the key to be forgotten", func() bool { return c.NumRequeues(cmKey) == 0 })
}

// TestServerErrorsOnWrites: update, patch and delete fail with a 500 and a
// 503; each sync's error is surfaced, the key retried with backoff, and the
// write lands.
func TestServerErrorsOnWrites(t *testing.T) {
	// Each write is skipped once it has landed: its own event brings the
	// key back.
	synced := func(ctx context.Context, client *fake.Clientset, key eventhandler.Key) (bool, error) {
		cm, err := client.CoreV1().ConfigMaps(key.Namespace).Get(ctx, key.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return err == nil && cm.Data["synced"] == "yes", err
	}
	writes := map[string]func(ctx context.Context, client *fake.Clientset, key eventhandler.Key) error{
		"update": func(ctx context.Context, client *fake.Clientset, key eventhandler.Key) error {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}, Data: map[string]string{"synced": "yes"}}
			_, err := client.CoreV1().ConfigMaps(key.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
			return err
		},
		"patch": func(ctx context.Context, client *fake.Clientset, key eventhandler.Key) error {
			_, err := client.CoreV1().ConfigMaps(key.Namespace).Patch(ctx, key.Name, types.MergePatchType, []byte(`{"data":{"synced":"yes"}}`), metav1.PatchOptions{})
			return err
		},
		"delete": func(ctx context.Context, client *fake.Clientset, key eventhandler.Key) error {
			return client.CoreV1().ConfigMaps(key.Namespace).Delete(ctx, key.Name, metav1.DeleteOptions{})
		},
	}
	for verb, write := range writes {
		t.Run(verb, func(t *testing.T) {
			client := configMaps("cm")
			var calls atomic.Int32
			client.PrependReactor(verb, "configmaps", func(k8stesting.Action) (bool, runtime.Object, error) {
				switch calls.Add(1) {
				case 1:
					return true, nil, apierrors.NewInternalError(errors.New("etcd is unavailable"))
				case 2:
					return true, nil, apierrors.NewServiceUnavailable("the server is shutting down")
				}
				return false, nil, nil
			})
			var failures atomic.Int32
			c, stop := informed(t, client, func(ctx context.Context, key eventhandler.Key) error {
				if done, err := synced(ctx, client, key); done || err != nil {
					return err
				}
				err := write(ctx, client, key)
				if err != nil {
					failures.Add(1)
				}
				return err
			})
			defer stop()
			eventually(t, "the "+verb+" to land", func() bool {
				cm, err := client.CoreV1().ConfigMaps("ns").Get(context.Background(), "cm", metav1.GetOptions{})
				if verb == "delete" {
					return apierrors.IsNotFound(err)
				}
				return err == nil && cm.Data["synced"] == "yes"
			})
			if got := failures.Load(); got != 2 {
				t.Errorf("the sync saw %d errors, want the 2 injected", got)
			}
			eventually(t, "the key to be forgotten", func() bool { return c.NumRequeues(cmKey) == 0 })
		})
	}
}

// TestDrainTimeoutFires: a sync still running when the drain timeout
// expires has its context cancelled then (not before), and Run returns
// once it has.
func TestDrainTimeoutFires(t *testing.T) {
	const drain = 300 * time.Millisecond
	client := configMaps("cm")
	entered := make(chan struct{})
	var waited atomic.Int64
	var stopped atomic.Pointer[time.Time]
	_, stop := informed(t, client, func(ctx context.Context, _ eventhandler.Key) error {
		close(entered)
		<-ctx.Done()
		waited.Store(int64(time.Since(*stopped.Load())))
		return ctx.Err()
	}, workloop.WithDrainTimeout[eventhandler.Key](drain))
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the key was never synced")
	}
	now := time.Now()
	stopped.Store(&now)
	stop() // fails the test if Run does not return
	if got := time.Duration(waited.Load()); got < drain {
		t.Errorf("the sync's context was cancelled %v after shutdown began, before the %v drain timeout", got, drain)
	}
}
