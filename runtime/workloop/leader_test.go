package workloop_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"github.com/ctrllint/ctrllint/runtime/workloop"
)

// TestLeaderElection: with a Lease lock on a fake clientset, the replica
// that wins the lease processes keys, the other does not, and both return
// cleanly when cancelled.
func TestLeaderElection(t *testing.T) {
	client := fake.NewClientset()
	lock := func(id string) resourcelock.Interface {
		return &resourcelock.LeaseLock{
			LeaseMeta:  metav1.ObjectMeta{Namespace: "kube-system", Name: "guard"},
			Client:     client.CoordinationV1(),
			LockConfig: resourcelock.ResourceLockConfig{Identity: id},
		}
	}
	le := func(id string) workloop.LeaderElection {
		return workloop.LeaderElection{Lock: lock(id), LeaseDuration: 2 * time.Second, RenewDeadline: time.Second, RetryPeriod: 100 * time.Millisecond}
	}
	processed := make(chan string, 10)
	newReplica := func(id string) *workloop.Controller[string] {
		c, err := workloop.New("leader", func(_ context.Context, key string) error {
			processed <- id
			return nil
		}, synced, workloop.WithLeaderElection[string](le(id)))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a := newReplica("a")
	stopA := start(t, a, 1)
	a.Enqueue("k")
	select {
	case who := <-processed:
		if who != "a" {
			t.Fatalf("processed by %s", who)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the only replica never led")
	}

	b := newReplica("b")
	stopB := start(t, b, 1)
	b.Enqueue("k")
	select {
	case who := <-processed:
		t.Fatalf("replica %s processed a key while a held the lease", who)
	case <-time.After(500 * time.Millisecond):
	}
	stopB()
	stopA()
}

// TestLeaseDurationWholeSeconds: client-go's elector records the lease
// duration in whole seconds (LeaseDurationSeconds), and other replicas
// wait only that long: with 1500ms they would take over after 1s, before
// this replica's bounds, computed from 1500ms, ran out (and with under a
// second, at once). New refuses such a duration instead of acting on it.
func TestLeaseDurationWholeSeconds(t *testing.T) {
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: "kube-system", Name: "fraction"},
		Client:     fake.NewClientset().CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: "a"},
	}
	for _, d := range []time.Duration{1500 * time.Millisecond, 900 * time.Millisecond} {
		_, err := workloop.New("fraction", func(context.Context, string) error { return nil }, synced,
			workloop.WithLeaderElection[string](workloop.LeaderElection{Lock: lock, LeaseDuration: d, RenewDeadline: 500 * time.Millisecond, RetryPeriod: 100 * time.Millisecond}))
		if err == nil || !strings.Contains(err.Error(), "whole number of seconds") {
			t.Errorf("LeaseDuration %v: New returned %v, want an error asking for whole seconds", d, err)
		}
	}
}
