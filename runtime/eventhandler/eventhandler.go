// Package eventhandler turns informer events into queue keys with deletions
// handled the way ctrllint's tombstone analyzer asks: typed handlers key
// deletions by DeletedObject.GetKey, which works with and without the
// deleted object; untyped ones unwrap cache.DeletedFinalStateUnknown.
//
// A panic in a handler built here (in the add function or a filter's
// predicate) is recovered and reported through utilruntime.HandleError:
// client-go's informer would otherwise crash the process (its default), or
// drop the event and deliver nothing more to the handler for a second.
package eventhandler

import (
	"fmt"
	"reflect"
	"runtime/debug"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
)

// Key is the queue key of an object: its namespace and name.
type Key = cache.ObjectName

// Enqueue returns typed handler funcs that add the key of every added,
// updated and deleted object.
func Enqueue[T cache.Object](add func(Key)) cache.TypedResourceEventHandlerFuncs[T] {
	return recovering(cache.TypedResourceEventHandlerFuncs[T]{
		AddFunc:    func(obj T) { add(keyOf(obj)) },
		UpdateFunc: func(_, obj T) { add(keyOf(obj)) },
		DeleteFunc: func(d cache.DeletedObject[T]) { add(d.GetObjectName()) },
	})
}

func keyOf[T cache.Object](obj T) Key {
	return Key{Namespace: obj.GetNamespace(), Name: obj.GetName()}
}

// EnqueueUntyped is Enqueue for untyped informers: the key of a deleted
// object comes from DeletionHandlingObjectToName, which reads a tombstone's
// key.
func EnqueueUntyped(add func(Key)) cache.ResourceEventHandlerFuncs {
	enqueue := func(obj any) {
		defer recoverEvent(obj)
		name, err := cache.DeletionHandlingObjectToName(obj)
		if err != nil {
			utilruntime.HandleError(fmt.Errorf("no key for %T: %w", obj, err))
			return
		}
		add(name)
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
		DeleteFunc: enqueue,
	}
}

// Object is what EnqueueOwner needs of a child: a key and owner references.
type Object interface {
	cache.Object
	metav1.Object
}

// EnqueueOwner returns handler funcs for a child resource that add the key
// of the child's controlling owner when that owner is of kind owner: a
// change to an owned ServiceAccount wakes up the Deployment that owns it.
// On update, both the old and the new controller are enqueued, so an
// owner that lost a child hears of it. A deletion the informer saw without
// any copy of the child cannot name its owner; the owner's own resync
// repairs that case.
func EnqueueOwner[T Object](owner schema.GroupKind, add func(Key)) cache.TypedResourceEventHandlerFuncs[T] {
	enqueue := func(obj T) {
		if key, ok := OwnerKey(obj, owner); ok {
			add(key)
		}
	}
	return recovering(cache.TypedResourceEventHandlerFuncs[T]{
		AddFunc: enqueue,
		UpdateFunc: func(old, cur T) {
			enqueue(cur)
			enqueue(old)
		},
		DeleteFunc: func(d cache.DeletedObject[T]) {
			var none T
			if d.OptionalObj == none {
				return // no copy of the child: its owner cannot be known
			}
			enqueue(d.OptionalObj)
		},
	})
}

// OwnerKey resolves a child's controller reference to its owner's key, if
// the controller is of the given kind (owners live in the child's
// namespace; cluster-scoped owners have none).
func OwnerKey[T Object](child T, owner schema.GroupKind) (Key, bool) {
	ref := metav1.GetControllerOfNoCopy(child)
	if ref == nil {
		return Key{}, false
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil || gv.Group != owner.Group || ref.Kind != owner.Kind {
		return Key{}, false
	}
	return Key{Namespace: child.GetNamespace(), Name: ref.Name}, true
}

// Filter wraps a typed handler with a predicate that lets deletions
// through even when the informer has no copy of the deleted object (the
// filter then receives the zero T, which keep is never asked about). An
// object on which keep panics is let through too: the sync decides, and a
// key is not lost to a bad predicate.
func Filter[T cache.Object](keep func(T) bool, h cache.TypedResourceEventHandler[T]) cache.TypedFilteringResourceEventHandler[T] {
	return cache.TypedFilteringResourceEventHandler[T]{
		FilterFunc: func(obj T) (pass bool) {
			var none T
			if obj == none {
				return true
			}
			defer func() {
				if r := recover(); r != nil {
					reportPanic("filter", obj, r)
					pass = true
				}
			}()
			return keep(obj)
		},
		Handler: recoveringHandler[T]{h},
	}
}

// recovering makes each of h's funcs report a panic instead of crashing
// the informer's delivery goroutine.
func recovering[T cache.Object](h cache.TypedResourceEventHandlerFuncs[T]) cache.TypedResourceEventHandlerFuncs[T] {
	add, update, del := h.AddFunc, h.UpdateFunc, h.DeleteFunc
	h.AddFunc = func(obj T) {
		defer recoverEvent(obj)
		add(obj)
	}
	h.UpdateFunc = func(old, obj T) {
		defer recoverEvent(obj)
		update(old, obj)
	}
	h.DeleteFunc = func(d cache.DeletedObject[T]) {
		defer recoverEvent(d.GetObjectName())
		del(d)
	}
	return h
}

// recoveringHandler is recovering for any typed handler.
type recoveringHandler[T cache.Object] struct {
	h cache.TypedResourceEventHandler[T]
}

func (r recoveringHandler[T]) OnAdd(obj T, initial bool) {
	defer recoverEvent(obj)
	r.h.OnAdd(obj, initial)
}

func (r recoveringHandler[T]) OnUpdate(old, obj T) {
	defer recoverEvent(obj)
	r.h.OnUpdate(old, obj)
}

func (r recoveringHandler[T]) OnDelete(d cache.DeletedObject[T]) {
	defer recoverEvent(d.GetObjectName())
	r.h.OnDelete(d)
}

// recoverEvent, deferred, reports a panic in the handling of obj's event.
func recoverEvent(obj any) {
	if r := recover(); r != nil {
		reportPanic("event handler", obj, r)
	}
}

func reportPanic(where string, obj any, r any) {
	utilruntime.HandleError(fmt.Errorf("%s panicked on %s: %v\n%s", where, describe(obj), r, debug.Stack()))
}

// describe names obj for a report without calling into it: a nil pointer
// (the zero T) has no name to ask for.
func describe(obj any) string {
	if v := reflect.ValueOf(obj); !v.IsValid() || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return fmt.Sprintf("%T(nil)", obj)
	}
	if name, ok := obj.(cache.ObjectName); ok {
		return name.String()
	}
	if name, err := cache.DeletionHandlingObjectToName(obj); err == nil {
		return fmt.Sprintf("%T %s", obj, name)
	}
	return fmt.Sprintf("%T", obj)
}

// Unwrap returns the object an untyped delete handler received, unwrapping
// a tombstone; ok is false when neither holds a T.
func Unwrap[T any](obj any) (T, bool) {
	if tombstone, isTombstone := obj.(cache.DeletedFinalStateUnknown); isTombstone {
		obj = tombstone.Obj
	}
	t, ok := obj.(T)
	return t, ok
}
