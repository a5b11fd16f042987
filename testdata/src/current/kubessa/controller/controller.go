// Package controller uses a work queue: SSA is built, and code after a
// call that never returns is unreachable in it.
package controller // want `ssa: built`

import (
	"os"

	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// fatalf never returns: it ends in klog.Fatalf.
func fatalf(format string, args ...any) {
	klog.Errorf(format, args...)
	klog.Fatalf(format, args...)
}

// die never returns through fatalf.
func die() {
	fatalf("dying")
}

// logOnly returns.
func logOnly(msg string) {
	klog.Info(msg)
}

func afterLocalExit(q workqueue.TypedInterface[string]) { // want `Add unreachable`
	die()
	q.Add("x")
}

func afterOSExit(q workqueue.TypedInterface[string]) { // want `Add unreachable`
	os.Exit(1)
	q.Add("x")
}

func afterLog(q workqueue.TypedInterface[string]) { // want `Add reachable`
	logOnly("x")
	q.Add("x")
}

func afterClosure(q workqueue.TypedInterface[string]) { // want `Add reachable`
	f := func() { klog.Fatal("in a closure") }
	_ = f
	q.Add("x")
}
