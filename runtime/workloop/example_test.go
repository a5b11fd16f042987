package workloop_test

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"

	"github.com/ctrllint/ctrllint/runtime/eventhandler"
	"github.com/ctrllint/ctrllint/runtime/workloop"
)

// A controller wired end to end: the informer's events become keys
// (eventhandler.Enqueue), the keys go into the controller's queue
// (Controller.Enqueue), and the workers hand them to the sync once the cache
// has synced. A sync that fails is retried with backoff; one that succeeds
// leaves nothing in the rate limiter.
func Example() {
	client := fake.NewClientset(&corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "settings"},
		Data:       map[string]string{"mode": "on"},
	})
	factory := informers.NewSharedInformerFactory(client, 0)
	configMaps := factory.Core().V1().ConfigMaps()
	lister := configMaps.Lister()

	attempts := 0
	done := make(chan struct{})
	sync := func(ctx context.Context, key eventhandler.Key) error {
		attempts++ // one worker below: no other sync runs at the same time
		cm, err := lister.ConfigMaps(key.Namespace).Get(key.Name)
		if err != nil {
			return err
		}
		if attempts == 1 {
			fmt.Println("attempt 1: failed")
			return errors.New("not yet") // retried after the rate limiter's backoff
		}
		fmt.Printf("attempt %d: %s has mode %s\n", attempts, key, cm.Data["mode"])
		close(done)
		return nil
	}

	c, err := workloop.New("settings", sync, []cache.DoneChecker{configMaps.Informer().HasSyncedChecker()})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := configMaps.TypedInformer().AddTypedEventHandler(eventhandler.Enqueue[*corev1.ConfigMap](c.Enqueue)); err != nil {
		fmt.Println(err)
		return
	}

	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	stopped := make(chan error)
	go func() { stopped <- c.Run(ctx, 1) }()

	<-done
	cancel() // shutdown: Run lets the sync in flight finish, then returns
	fmt.Println("Run returned:", <-stopped)
	fmt.Println("retries remembered:", c.NumRequeues(eventhandler.Key{Namespace: "default", Name: "settings"}))
	// Output:
	// attempt 1: failed
	// attempt 2: default/settings has mode on
	// Run returned: <nil>
	// retries remembered: 0
}

// A key whose sync keeps failing is retried up to the limit, then given up
// and forgotten: OnGiveUp hears of it, and the next event starts afresh.
func ExampleOnGiveUp() {
	client := fake.NewClientset(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "broken"}})
	factory := informers.NewSharedInformerFactory(client, 0)
	configMaps := factory.Core().V1().ConfigMaps()

	attempts := 0
	sync := func(context.Context, eventhandler.Key) error {
		attempts++
		return errors.New("invalid mode")
	}
	gaveUp := make(chan struct{})
	c, err := workloop.New("settings", sync, []cache.DoneChecker{configMaps.Informer().HasSyncedChecker()},
		workloop.WithMaxRetries[eventhandler.Key](2),
		workloop.OnGiveUp(func(key eventhandler.Key, err error) {
			fmt.Printf("gave up on %s after %d attempts: %v\n", key, attempts, err)
			close(gaveUp)
		}))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := configMaps.TypedInformer().AddTypedEventHandler(eventhandler.Enqueue[*corev1.ConfigMap](c.Enqueue)); err != nil {
		fmt.Println(err)
		return
	}

	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	stopped := make(chan error)
	go func() { stopped <- c.Run(ctx, 1) }()

	<-gaveUp
	cancel()
	<-stopped
	fmt.Println("retries remembered:", c.NumRequeues(eventhandler.Key{Namespace: "default", Name: "broken"}))
	// Output:
	// gave up on default/broken after 3 attempts: invalid mode
	// retries remembered: 0
}

// New refuses a controller that names no cache: a sync that runs before its
// cache has synced takes missing objects for deleted ones.
func ExampleNew() {
	sync := func(context.Context, string) error { return nil }
	_, err := workloop.New("orphans", sync, nil)
	fmt.Println(err)
	// Output:
	// controller orphans: name the caches the sync reads (synced is empty)
}
