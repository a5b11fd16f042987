package cachesync

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// Run variants of the sample controller. Each is called from outside the
// package, as a controller's Run is.

// RunNoWait never waits: the workers read a lister that is still filling.
func (c *Controller) RunNoWait(ctx context.Context, workers int) {
	defer c.workqueue.ShutDown()
	for i := 0; i < workers; i++ {
		go wait.UntilWithContext(ctx, c.runWorker, time.Second) // want `worker c.runWorker starts before the informer caches it reads have synced: its listers are still filling`
	}
	<-ctx.Done()
}

// RunStopCh uses the stop-channel helpers of older controllers.
func (c *Controller) RunStopCh(workers int, stopCh <-chan struct{}) {
	defer c.workqueue.ShutDown()
	for i := 0; i < workers; i++ {
		go wait.Until(c.worker, time.Second, stopCh) // want `worker c.worker starts before the informer caches it reads have synced`
	}
	<-stopCh
}

func (c *Controller) worker() {
	for c.processNextWorkItem(context.Background()) {
	}
}

// RunWaitAfter waits, but only once the workers are already running.
func (c *Controller) RunWaitAfter(ctx context.Context) {
	go wait.UntilWithContext(ctx, c.runWorker, time.Second) // want `worker c.runWorker starts on a path that skips the cache-sync wait`
	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.deploymentsSynced) {
		return
	}
	<-ctx.Done()
}

// RunSomePaths skips the wait when fastStart is set.
func (c *Controller) RunSomePaths(ctx context.Context) {
	if !c.fastStart {
		if !cache.WaitForNamedCacheSyncWithContext(ctx, c.deploymentsSynced) {
			return
		}
	}
	go wait.UntilWithContext(ctx, c.runWorker, time.Second) // want `worker c.runWorker starts on a path that skips the cache-sync wait`
	<-ctx.Done()
}

// RunWaitGroup is kubernetes' DeploymentController.Run: the workers are
// started through WaitGroup.Go around wait.UntilWithContext. Silent.
func (c *Controller) RunWaitGroup(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	defer func() {
		c.workqueue.ShutDown()
		wg.Wait()
	}()
	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.deploymentsSynced) {
		return
	}
	for i := 0; i < workers; i++ {
		wg.Go(func() {
			wait.UntilWithContext(ctx, c.runWorker, time.Second)
		})
	}
	<-ctx.Done()
}

// RunWaitGroupNoWait is the same without the wait.
func (c *Controller) RunWaitGroupNoWait(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for i := 0; i < workers; i++ {
		wg.Go(func() { // want `worker c.runWorker \(line \d+\) starts before the informer caches it reads have synced`
			wait.UntilWithContext(ctx, c.runWorker, time.Second)
		})
	}
	<-ctx.Done()
}

// RunGroup starts its workers through wait.Group.
func (c *Controller) RunGroup(ctx context.Context) {
	var g wait.Group
	g.StartWithContext(ctx, c.runWorker) // want `worker c.runWorker starts before`
	<-ctx.Done()
	g.Wait()
}

// RunClosure runs the worker loop in a go func literal.
func (c *Controller) RunClosure(ctx context.Context) {
	go func() { // want `the worker loop around c.processNextWorkItem starts before`
		for c.processNextWorkItem(ctx) {
		}
	}()
	<-ctx.Done()
}

// RunWaitFor waits with v0.37's DoneChecker-based cache.WaitFor. Silent.
func (c *Controller) RunWaitFor(ctx context.Context) {
	if !cache.WaitFor(ctx, "deployments", c.deploymentsChecker) {
		return
	}
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}

// RunIgnoredResult waits without looking at the result: it waited. Silent.
func (c *Controller) RunIgnoredResult(ctx context.Context) {
	cache.WaitForCacheSync(ctx.Done(), c.deploymentsSynced)
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}

// RunProceedAnyway proceeds when the wait times out, as kubernetes' garbage
// collector does on purpose: the wait still counts. Silent.
func (c *Controller) RunProceedAnyway(ctx context.Context, timeout time.Duration) {
	syncCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if !cache.WaitForNamedCacheSyncWithContext(syncCtx, c.deploymentsSynced) {
		klog.FromContext(ctx).Info("not all caches synced, proceeding anyway")
	}
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}

// RunWaitHelper waits in a helper that waits on every path. Silent.
func (c *Controller) RunWaitHelper(ctx context.Context) {
	if !c.waitForCaches(ctx) {
		return
	}
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}

func (c *Controller) waitForCaches(ctx context.Context) bool {
	klog.FromContext(ctx).Info("Waiting for caches to sync")
	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.deploymentsSynced) {
		return false
	}
	klog.FromContext(ctx).Info("Caches are synced")
	return true
}

// RunMaybeWaitHelper calls a helper that waits only sometimes.
func (c *Controller) RunMaybeWaitHelper(ctx context.Context) {
	c.maybeWait(ctx)
	go wait.UntilWithContext(ctx, c.runWorker, time.Second) // want `worker c.runWorker starts before the informer caches`
	<-ctx.Done()
}

func (c *Controller) maybeWait(ctx context.Context) {
	if c.fastStart {
		return
	}
	cache.WaitForNamedCacheSyncWithContext(ctx, c.deploymentsSynced)
}

// RunHelperAfter starts the workers in a helper after waiting. Silent.
func (c *Controller) RunHelperAfter(ctx context.Context, workers int) {
	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.deploymentsSynced) {
		return
	}
	c.startWorkers(ctx, workers)
	<-ctx.Done()
}

// RunHelperBefore starts them before waiting: reported at the call.
func (c *Controller) RunHelperBefore(ctx context.Context, workers int) {
	c.startWorkers(ctx, workers) // want `Controller.startWorkers starts worker c.runWorker \(line \d+\) on a path that skips the cache-sync wait`
	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.deploymentsSynced) {
		return
	}
	<-ctx.Done()
}

func (c *Controller) startWorkers(ctx context.Context, workers int) {
	for i := 0; i < workers; i++ {
		go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	}
}

// RunSelfWaiting starts a worker that waits for the caches before it takes
// its first item. Silent.
func (c *Controller) RunSelfWaiting(ctx context.Context) {
	go c.waitingWorker(ctx)
	<-ctx.Done()
}

func (c *Controller) waitingWorker(ctx context.Context) {
	if !cache.WaitForCacheSync(ctx.Done(), c.deploymentsSynced) {
		return
	}
	for c.processNextWorkItem(ctx) {
	}
}

// runInner starts workers without waiting; it is started by StartUnsynced,
// which does not wait either (reported there), and by StartSynced, which
// waits on the factory first (silent).
func (c *Controller) runInner(ctx context.Context) {
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}

func StartUnsynced(ctx context.Context, c *Controller) {
	go c.runInner(ctx) // want `Controller.runInner starts worker c.runWorker \(line \d+\) before`
}

func StartSynced(ctx context.Context, c *Controller) {
	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.deploymentsSynced) {
		return
	}
	go c.runInner(ctx)
}
