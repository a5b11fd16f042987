package cachesync

import (
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

func TestWorkerLaunchers(t *testing.T) {
	for _, fixture := range []string{"current", "legacy"} {
		t.Run(fixture, func(t *testing.T) {
			pkg := loadSync(t, fixture)
			for name, want := range map[string]int{
				"Until":                   0,
				"UntilWithContext":        1,
				"NonSlidingUntil":         0,
				"JitterUntil":             0,
				"JitterUntilWithContext":  1,
				"BackoffUntil":            0,
				"Forever":                 0,
				"PollUntil":               -1,
				"PollImmediateUntil":      -1,
				"ExponentialBackoff":      -1,
				"PollUntilContextTimeout": -1,
			} {
				got, ok := workerLauncher(function(t, pkg, kube.WaitPkg, name))
				if want < 0 {
					if ok {
						t.Errorf("wait.%s is taken for a worker launcher", name)
					}
					continue
				}
				if !ok || got != want {
					t.Errorf("workerLauncher(wait.%s) = %d, %v; want %d", name, got, ok, want)
				}
			}
			for v, methods := range map[string]map[string]int{
				"launchLoopGroup": {"Start": 0, "StartWithChannel": 1, "StartWithContext": 1},
				"launchWaitGroup": {"Go": 0},
			} {
				for m, want := range methods {
					fn, _ := syncMethod(t, pkg, v, m)
					if got, ok := workerLauncher(fn); !ok || got != want {
						t.Errorf("workerLauncher(%s.%s) = %d, %v; want %d", v, m, got, ok, want)
					}
				}
			}
			for v, m := range map[string]string{"launchWaitGroup": "Wait", "notLaunchedMutex": "Lock", "factoryTyped": "Start"} {
				fn, _ := syncMethod(t, pkg, v, m)
				if _, ok := workerLauncher(fn); ok {
					t.Errorf("%s.%s is taken for a worker launcher", v, m)
				}
			}
		})
	}
}
