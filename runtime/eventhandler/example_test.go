package eventhandler_test

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"

	"github.com/ctrllint/ctrllint/runtime/eventhandler"
)

// A typed informer's events, deletions included, become namespace/name keys.
// A controller hands its queue's add (workloop.Controller.Enqueue) where this
// example hands a channel's send.
func ExampleEnqueue() {
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	deployments := factory.Apps().V1().Deployments()

	keys := make(chan eventhandler.Key, 10)
	handler := eventhandler.Enqueue[*appsv1.Deployment](func(key eventhandler.Key) { keys <- key })
	if _, err := deployments.TypedInformer().AddTypedEventHandler(handler); err != nil {
		fmt.Println(err)
		return
	}

	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	defer cancel() // before Shutdown, which waits for the informers to stop
	factory.WaitForCacheSync(ctx.Done())

	web := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"}}
	if _, err := client.AppsV1().Deployments("default").Create(ctx, web, metav1.CreateOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("created:", <-keys)
	// The create arrived through the watch, so the watch is up and sees the
	// deletion too (the fake clientset replays no deletion to a late watch).
	if err := client.AppsV1().Deployments("default").Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("deleted:", <-keys)
	// Output:
	// created: default/web
	// deleted: default/web
}

// A deletion the informer noticed only on a re-list carries no copy of the
// object, only its key in a tombstone: the key is still enqueued.
func ExampleEnqueue_tombstone() {
	handler := eventhandler.Enqueue[*corev1.Pod](func(key eventhandler.Key) { fmt.Println("enqueued", key) })
	handler.OnDelete(cache.DeletedObject[*corev1.Pod]{
		FinalStateUnknown: &cache.DeletedFinalStateUnknown{Key: "default/gone"},
	})
	// Output:
	// enqueued default/gone
}

// A child's events wake up its controlling owner, if the owner is of the
// kind asked for; children of other kinds of owner, and orphans, wake no one.
func ExampleEnqueueOwner() {
	web := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web", UID: "uid-web"}}
	deploymentGK := schema.GroupKind{Group: appsv1.GroupName, Kind: "Deployment"}
	handler := eventhandler.EnqueueOwner[*corev1.ServiceAccount](deploymentGK, func(key eventhandler.Key) {
		fmt.Println("enqueued", key)
	})

	owned := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{
		Namespace:       "default",
		Name:            "web-guard",
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(web, appsv1.SchemeGroupVersion.WithKind("Deployment"))},
	}}
	orphan := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "stray"}}
	handler.OnAdd(owned, false)
	handler.OnAdd(orphan, false)
	// Output:
	// enqueued default/web
}

// A filter that lets a deletion without a copy of the object through: its
// predicate is never asked about the zero value a typed filter receives then.
func ExampleFilter() {
	guarded := func(d *appsv1.Deployment) bool { return d.Annotations["example.com/guard"] == "true" }
	handler := eventhandler.Filter(guarded, eventhandler.Enqueue[*appsv1.Deployment](func(key eventhandler.Key) {
		fmt.Println("enqueued", key)
	}))

	on := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{
		Namespace: "default", Name: "on", Annotations: map[string]string{"example.com/guard": "true"},
	}}
	off := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "off"}}
	handler.OnAdd(on, false)
	handler.OnAdd(off, false)
	handler.OnDelete(cache.DeletedObject[*appsv1.Deployment]{
		FinalStateUnknown: &cache.DeletedFinalStateUnknown{Key: "default/unknown"},
	})
	// Output:
	// enqueued default/on
	// enqueued default/unknown
}

// For an untyped informer (Informer().AddEventHandler): a deletion that
// arrives as a tombstone is keyed by the tombstone's key.
func ExampleEnqueueUntyped() {
	handler := eventhandler.EnqueueUntyped(func(key eventhandler.Key) { fmt.Println("enqueued", key) })
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-0"}}
	handler.OnAdd(pod, false)
	handler.OnDelete(cache.DeletedFinalStateUnknown{Key: "default/web-1"})
	// Output:
	// enqueued default/web-0
	// enqueued default/web-1
}

// Untyped handlers receive a deleted object either as itself or wrapped in a
// tombstone; Unwrap gives the object in both cases.
func ExampleUnwrap() {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-0"}}
	for _, obj := range []any{pod, cache.DeletedFinalStateUnknown{Key: "default/web-0", Obj: pod}, "not a pod"} {
		p, ok := eventhandler.Unwrap[*corev1.Pod](obj)
		if !ok {
			fmt.Printf("%T: no pod\n", obj)
			continue
		}
		fmt.Printf("%T: pod %s\n", obj, p.Name)
	}
	// Output:
	// *v1.Pod: pod web-0
	// cache.DeletedFinalStateUnknown: pod web-0
	// string: no pod
}
