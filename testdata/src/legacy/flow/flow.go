// Package flow holds, against client-go v0.30 and controller-runtime v0.18, the value-flow shapes of controllers that
// analyzers/internal/flow's tests trace: each call of origins, origin or
// uses reports what flow finds for its first argument under the policy
// its second names. The shapes come from kubernetes' pkg/controller
// (a lister's object handed on as runtime.Object, deployment_controller.go's
// `d := obj.(*apps.Deployment)`), controller-runtime's reconcilers (a Get
// into a captured variable inside retry.RetryOnConflict) and
// sample-controller's handler closures.
package flow

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func origins(v any, policy string) {}
func origin(v any, policy string)  {}
func uses(v any, policy string)    {}

// A pod handed on as client.Object and runtime.Object is the same pod.
func conversions(pod *corev1.Pod) {
	var obj client.Object = pod
	var ro runtime.Object = obj
	origins(ro, "Same")   // want `origins: param pod`
	origins(ro, "Fields") // want `origins: changeinterface`
}

// deployment_controller.go's deletePod: obj.(*v1.Pod) is the object the
// informer handed in; the comma-ok form may be a zero value instead.
func assertions(obj interface{}) {
	pod := obj.(*corev1.Pod)
	origins(pod, "Same") // want `origins: param obj`
	p2, ok := obj.(*corev1.Pod)
	if ok {
		origins(p2, "Same") // want `origins: extract`
	}
}

// A pod from the lister or from the caller, merged by a φ.
func merged(lister corelisters.PodLister, given *corev1.Pod, fresh bool) error {
	pod := given
	if fresh {
		p, err := lister.Pods("ns").Get("name")
		if err != nil {
			return err
		}
		pod = p
	}
	origins(pod, "Same")               // want `origins: phi`
	origins(pod, "Same|Phis")          // want `origins: param given, extract`
	origin(pod, "Same|Phis")           // want `origin: phi`
	origins(pod, "Same|Phis|Extracts") // want `origins: param given, call Get`
	return nil
}

// Memory reached from the object: its status, a condition of it.
func within(pod *corev1.Pod) {
	c := &pod.Status.Conditions[0]
	origins(c, "Within") // want `origins: param pod`
	origins(c, "Same")   // want `origins: indexaddr`
	phase := pod.Status.Phase
	origins(phase, "Within") // want `origins: param pod`
}

// A Get into a variable that the retried closure captures: the closure
// reads the pointer the variable holds, assigned once.
func captured(ctx context.Context, c client.Client, key client.ObjectKey) error {
	pod := &corev1.Pod{}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, key, pod); err != nil {
			return err
		}
		origins(pod, "Same") // want `origins: alloc`
		return c.Update(ctx, pod)
	})
}

// A captured variable assigned twice holds either value at a load: no
// one origin.
func reassigned(ctx context.Context, c client.Client, a, b *corev1.Pod) error {
	pod := a
	pod = b
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		origins(pod, "Same") // want `origins: load`
		return c.Update(ctx, pod)
	})
}

// Closures made in a loop and by a constructor called twice: a free
// variable holds what each making binds, and Origin finds one value only
// where every making binds the same.
func twice(a, b *corev1.Pod) []func() {
	var fns []func()
	for _, p := range []*corev1.Pod{a, b} {
		fns = append(fns, func() {
			origins(p, "Same") // want `origins: load`
		})
	}
	mk := func(pod *corev1.Pod) func() {
		return func() {
			origins(pod, "Same") // want `origins: param pod`
		}
	}
	fns = append(fns, mk(a), mk(b))
	handler := func(obj *corev1.Pod) func() {
		return func() { origin(obj, "Same") } // want `origin: param obj`
	}
	one := a
	f := func() { origin(one, "Same") } // want `origin: param a`
	g := func() { origin(one, "Same") } // want `origin: param a`
	return append(fns, handler(a), f, g)
}

// Where the lister's object goes: handed to a function as
// runtime.Object, stored into a captured variable, read in a closure.
func forward(lister corelisters.PodLister, sink func(runtime.Object)) error {
	pod, err := lister.Pods("ns").Get("name")
	if err != nil {
		return err
	}
	sink(pod)
	uses(pod, "Same") // want `uses: makeinterface, makeinterface, call sink, call uses`
	return nil
}

func reaching(v any, policy string) {}

// A named error result that a deferred closure reads (a reconciler's
// `defer func() { r.patchStatus(ctx, obj, err) }()`) is kept in memory:
// a load of it reads the store on each path to it, the zero value (the
// alloc) where no store comes first, and the store at a loop's end on the
// way back.
func reached(a, b error, ok bool) (err error) {
	defer func() { _ = err }()
	if ok {
		reaching(err, "Same") // want `reaching: alloc`
		err = a
	} else {
		err = b
	}
	for i := 0; i < 3; i++ {
		reaching(err, "Same") // want `reaching: store param b, store param b, store param a`
		err = b
	}
	return err
}

// A captured variable assigned once, but read on a path before the
// assignment (a handler closure made before the client it uses is set,
// as in a constructor that wires handlers first): a load there reads nil,
// so the variable holds two values and no load of it is a cell, the one
// after the assignment included.
func beforeAssigned(ctx context.Context, c client.Client, build func() *corev1.Pod, early bool) func() {
	var pod *corev1.Pod
	f := func() {
		origin(pod, "Same") // want `origin: load`
	}
	if early {
		f()
	}
	pod = build()
	origin(pod, "Same") // want `origin: load`
	return f
}

// A retry closure that fetches the object again only on a later attempt
// (kubernetes' RetryOnConflict callers in pkg/controller refresh what
// they captured this way): a load of the captured variable reads the
// closure's own store on one path and, on the first attempt's, what its
// maker stored, outside this function. The answer is incomplete and
// still names the store of the path that has one.
func reachedInClosure(get func() *corev1.Pod, retry func(func() error) error, log func(string)) {
	pod := get()
	_ = retry(func() error {
		if pod == nil {
			pod = get()
		} else {
			log("retrying")
		}
		reaching(pod, "Same") // want `reaching: store call t2, incomplete`
		return nil
	})
}

func variadic(msg string, keysAndValues ...any) {}

// The key-value pairs of a logger's call (klog.InfoS and logr's Info in
// kubernetes pkg/controller and controller-runtime reconcilers): listed
// at the call site, they are known in order; none is nil; a slice the
// caller built elsewhere and spreads is not known.
func variadics(pod *corev1.Pod, err error, kv []any) {
	variadic("syncing", "pod", pod, "err", err) // want `variadic: const, param pod, const, param err`
	variadic("synced")                          // want `variadic: $`
	variadic("spread", kv...)                   // want `variadic: unknown`
}
