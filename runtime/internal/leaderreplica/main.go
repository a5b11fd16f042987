//go:build linux

// Command leaderreplica is one replica of a small controller built on
// workloop's leader election, for the end-to-end failover test
// (hack/e2e/leader_test.go in the root module, docs/e2e.md). It is not an
// example to copy: its syncs are slow on purpose and it records everything
// it does.
//
// It reconciles the ConfigMaps of one namespace: each sync sleeps
// -sync-delay (so that one is in flight whenever the test strikes), checks
// its context, then patches an annotation onto the ConfigMap. That patch is
// an update event, so every key keeps being reconciled while the replica
// leads.
//
// Each thing it does is appended to the -record file as one line, written
// with a single write(2) (so a line is whole even when the process is
// killed right after it):
//
//	<CLOCK_MONOTONIC nanoseconds> <event> [<namespace/name>] [<detail>]
//
// with events ready (caches synced, campaigning for the lease), start <key>
// (a sync began), write <key> (just before the patch is sent), end <key>
// ok|abort|gone|error (the sync returned), lost (Run returned
// ErrLeadershipLost), stopped (Run returned after SIGTERM). CLOCK_MONOTONIC
// is one clock for every process on the machine, the test's included, and
// keeps counting while a process is stopped.
//
// Exit status: 0 after SIGTERM once the syncs have drained, 3 when the
// lease was lost (what workloop asks of a program: exit, so that nothing
// left running acts alongside the next leader), 1 on any other error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"github.com/ctrllint/ctrllint/runtime/eventhandler"
	"github.com/ctrllint/ctrllint/runtime/workloop"
)

// Annotation is what a sync writes: the replica's identity and a sequence
// number, so that every write changes the object.
const Annotation = "e2e.ctrllint.dev/reconciled"

// ExitLost is the exit status after the lease was lost.
const ExitLost = 3

func main() {
	var (
		kubeconfig = flag.String("kubeconfig", "", "path to a kubeconfig")
		id         = flag.String("id", "", "this replica's identity in the lease")
		record     = flag.String("record", "", "file to append the record of what this replica does to")
		namespace  = flag.String("namespace", "", "namespace of the ConfigMaps to reconcile")
		lease      = flag.String("lease", "", "the Lease, as namespace/name")
		workers    = flag.Int("workers", 2, "how many keys are synced at once")
		delay      = flag.Duration("sync-delay", 500*time.Millisecond, "how long a sync takes before it writes")
		leaseDur   = flag.Duration("lease-duration", 4*time.Second, "workloop.LeaderElection.LeaseDuration")
		renew      = flag.Duration("renew-deadline", 2*time.Second, "workloop.LeaderElection.RenewDeadline")
		retry      = flag.Duration("retry-period", 250*time.Millisecond, "workloop.LeaderElection.RetryPeriod")
	)
	flag.Parse()
	leaseNS, leaseName, ok := strings.Cut(*lease, "/")
	if flag.NArg() > 0 || *kubeconfig == "" || *id == "" || *record == "" || *namespace == "" || !ok || leaseNS == "" || leaseName == "" {
		fmt.Fprintln(os.Stderr, "usage: leaderreplica -kubeconfig F -id ID -record F -namespace NS -lease NS/NAME [flags]")
		os.Exit(2)
	}
	rec, err := openRecord(*record)
	if err != nil {
		fmt.Fprintf(os.Stderr, "leaderreplica: %v\n", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	err = run(ctx, rec, config{
		kubeconfig: *kubeconfig, id: *id, namespace: *namespace, leaseNS: leaseNS, leaseName: leaseName,
		workers: *workers, delay: *delay,
		le: workloop.LeaderElection{LeaseDuration: *leaseDur, RenewDeadline: *renew, RetryPeriod: *retry},
	})
	switch {
	case errors.Is(err, workloop.ErrLeadershipLost):
		rec.add("lost", "", "")
		os.Exit(ExitLost) // at once: nothing of this replica may go on acting
	case err != nil:
		fmt.Fprintf(os.Stderr, "leaderreplica: %v\n", err)
		os.Exit(1)
	}
	rec.add("stopped", "", "")
}

type config struct {
	kubeconfig, id, namespace, leaseNS, leaseName string
	workers                                       int
	delay                                         time.Duration
	le                                            workloop.LeaderElection
}

func run(ctx context.Context, rec *recorder, cfg config) error {
	rest, err := clientcmd.BuildConfigFromFlags("", cfg.kubeconfig)
	if err != nil {
		return fmt.Errorf("loading the client configuration: %w", err)
	}
	// Client-side rate limits well above what the syncs ask for, and the
	// lease a client of its own: its renewals never wait behind the syncs'
	// requests.
	rest.QPS, rest.Burst = 50, 100
	leaseRest := *rest
	client, err := kubernetes.NewForConfig(rest)
	if err != nil {
		return err
	}
	leaseClient, err := kubernetes.NewForConfig(&leaseRest)
	if err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(cfg.namespace))
	cms := factory.Core().V1().ConfigMaps()
	r := &replica{id: cfg.id, client: client, lister: cms.Lister(), rec: rec, delay: cfg.delay}

	le := cfg.le
	le.Lock = &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: cfg.leaseNS, Name: cfg.leaseName},
		Client:     leaseClient.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: cfg.id},
	}
	c, err := workloop.New("leaderreplica", r.sync, []cache.DoneChecker{cms.Informer().HasSyncedChecker()},
		workloop.WithLeaderElection[eventhandler.Key](le))
	if err != nil {
		return err
	}
	if _, err := cms.TypedInformer().AddTypedEventHandler(eventhandler.Enqueue[*corev1.ConfigMap](c.Enqueue)); err != nil {
		return err
	}
	factory.Start(ctx.Done())
	// Synced before campaigning, so that the test knows this replica is
	// ready to take over the moment its "ready" is recorded.
	if !cache.WaitFor(ctx, "ConfigMaps", cms.Informer().HasSyncedChecker()) {
		return ctx.Err()
	}
	rec.add("ready", "", "")
	return c.Run(ctx, cfg.workers)
}

type replica struct {
	id     string
	client kubernetes.Interface
	lister corelisters.ConfigMapLister
	rec    *recorder
	delay  time.Duration
	seq    atomic.Int64
}

// sync is deliberately slow, and honours the one rule workloop's leader
// election asks of a sync: check the context before each write.
func (r *replica) sync(ctx context.Context, key eventhandler.Key) error {
	r.rec.add("start", key.String(), "")
	outcome := "abort"
	defer func() { r.rec.add("end", key.String(), outcome) }()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(r.delay):
	}
	// The lease may have run out while this sync slept, or while the whole
	// process was stopped: the context says so (reading the clock), even
	// before the elector has noticed.
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := r.lister.ConfigMaps(key.Namespace).Get(key.Name); apierrors.IsNotFound(err) {
		outcome = "gone"
		return nil
	} else if err != nil {
		outcome = "error"
		return err
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, Annotation, r.id+" "+strconv.FormatInt(r.seq.Add(1), 10))
	r.rec.add("write", key.String(), "")
	if _, err := r.client.CoreV1().ConfigMaps(key.Namespace).Patch(ctx, key.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		if apierrors.IsNotFound(err) {
			outcome = "gone"
			return nil
		}
		outcome = "error"
		return err
	}
	outcome = "ok"
	return nil
}

// recorder appends one line per event to a file opened with O_APPEND.
type recorder struct {
	mu sync.Mutex
	f  *os.File
}

func openRecord(path string) (*recorder, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &recorder{f: f}, nil
}

func (r *recorder) add(event, key, detail string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	line := strconv.FormatInt(monotonic(), 10) + " " + event
	if key != "" {
		line += " " + key
	}
	if detail != "" {
		line += " " + detail
	}
	if _, err := r.f.Write([]byte(line + "\n")); err != nil {
		fmt.Fprintf(os.Stderr, "leaderreplica: recording %q: %v\n", line, err)
		os.Exit(1)
	}
}

// monotonic is CLOCK_MONOTONIC in nanoseconds: unlike time.Now's monotonic
// reading, which counts from the process's start, the same clock in every
// process.
func monotonic() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		panic(err)
	}
	return ts.Nano()
}
