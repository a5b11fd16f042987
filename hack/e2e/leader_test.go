//go:build e2e

package e2e

// Leader election under real failure: two replicas of a controller built on
// runtime/workloop's leader election (runtime/internal/leaderreplica), each
// its own OS process with its own clients, against one Lease on a real
// kube-apiserver and etcd. The leader is killed, cut off from the API
// server, or stopped (SIGSTOP) and resumed, each while a sync is in flight;
// the test then reads what each replica recorded and checks that no key was
// ever processed by both at once, that the old leader stopped before the
// survivor started, and that the survivor took over in time. docs/e2e.md.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// The replicas' lease timings and sync length. LeaseDuration is a whole
// number of seconds: the Lease records it so (LeaseDurationSeconds), and
// that is what the other replica waits for.
const (
	leaderLeaseDuration = 4 * time.Second
	leaderRenewDeadline = 2 * time.Second
	leaderRetryPeriod   = 250 * time.Millisecond
	leaderSyncDelay     = 500 * time.Millisecond
	// client-go's elector waits between RetryPeriod and (1+JitterFactor)
	// times it between two attempts to acquire the lease
	// (leaderelection.JitterFactor, wait.JitterUntil).
	leaderJitterFactor = 1.2
	// The slack on the takeover bound: the survivor's requests to acquire,
	// its worker's start, and scheduling on a loaded two-core machine.
	leaderTakeoverSlack = time.Second
	// Keys: the ConfigMaps made before the failure, and those made while the
	// leader is down, which only the survivor can reconcile.
	leaderKeysBefore = 6
	leaderKeysDuring = 2
	// Exit status of leaderreplica after losing the lease.
	leaderExitLost = 3
)

// leaderTakeoverBound is how long after the failure the survivor may take
// to start its first sync. The old leader's last renewal was written no
// later than the failure. The survivor sees it at its next look at the
// Lease, within (1+JitterFactor) retry periods, and takes the lease over at
// its first attempt a lease duration after seeing it, again within
// (1+JitterFactor) retry periods: so within a lease duration plus
// 2(1+JitterFactor) retry periods of the failure, plus its requests and its
// worker's start (the slack).
const leaderTakeoverBound = leaderLeaseDuration + time.Duration(2*(1+leaderJitterFactor)*float64(leaderRetryPeriod)) + leaderTakeoverSlack

// TestLeaderFailoverE2E runs each failure against one control plane, each
// in a namespace and Lease of its own.
func TestLeaderFailoverE2E(t *testing.T) {
	cfg, env := e2eControlPlane(t)
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	bin := buildLeaderReplica(t)
	for _, mode := range []string{"kill", "partition", "pause"} {
		t.Run(mode, func(t *testing.T) {
			leaderFailover(t, cfg, env.KubeConfig, client, bin, mode)
		})
	}
}

// leaderFailover: A leads with a sync in flight, B is ready; A fails (mode);
// B takes over; A comes back (partition, pause); both stop; the records are
// checked.
func leaderFailover(t *testing.T, cfg *rest.Config, kubeconfig []byte, client kubernetes.Interface, bin, mode string) {
	ctx := context.Background()
	ns := "leader-" + mode
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var keys []string
	createConfigMap := func(name string) {
		t.Helper()
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string]string{"made": mode}}
		if _, err := client.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, ns+"/"+name)
	}
	for i := range leaderKeysBefore {
		createConfigMap(fmt.Sprintf("cm-%d", i))
	}

	dir := t.TempDir()
	kubeconfigA := writeKubeconfig(t, dir, "a", kubeconfig)
	var proxy *leaderProxy
	if mode == "partition" {
		// A reaches the API server only through a proxy the test can cut.
		proxy = startLeaderProxy(t, cfg.Host)
		kubeconfigA = writeKubeconfig(t, dir, "a", proxy.kubeconfig(t, kubeconfig, cfg.Host))
	}
	kubeconfigB := writeKubeconfig(t, dir, "b", kubeconfig)
	a := startLeaderReplica(t, bin, dir, "a", kubeconfigA, ns)
	waitRecord(t, a, "A to lead and sync", func(r []leaderEvent) bool { return slices.ContainsFunc(r, isEvent("start")) })
	b := startLeaderReplica(t, bin, dir, "b", kubeconfigB, ns)
	waitRecord(t, b, "B to be ready", func(r []leaderEvent) bool { return slices.ContainsFunc(r, isEvent("ready")) })

	// Strike while a sync of A's has just started: it is sleeping, before
	// its write.
	inFlight := waitFreshSync(t, a)
	var failed, quiet int64 // when the failure began; when A can no longer act (kill, pause)
	switch mode {
	case "kill":
		failed = monotonicNow()
		a.signal(t, syscall.SIGKILL)
		a.wait(t, 10*time.Second)
		quiet = monotonicNow()
	case "partition":
		failed = monotonicNow()
		proxy.cut()
	case "pause":
		failed = monotonicNow()
		a.signal(t, syscall.SIGSTOP)
		waitStopped(t, a)
		quiet = monotonicNow()
	}
	t.Logf("%s: A failed with its sync of %s in flight (started %v before)", mode, inFlight.key, time.Duration(failed-inFlight.at).Round(time.Millisecond))

	// Work that arrives while the leader is down.
	for i := range leaderKeysDuring {
		createConfigMap(fmt.Sprintf("cm-new-%d", i))
	}
	// B takes over: it has synced every key, the new ones included.
	firstB := waitRecord(t, b, "B to take over", func(r []leaderEvent) bool { return slices.ContainsFunc(r, isEvent("start")) })
	takeover := time.Duration(firstB[slices.IndexFunc(firstB, isEvent("start"))].at - failed)
	waitRecord(t, b, "B to sync every key", func(r []leaderEvent) bool {
		for _, k := range keys {
			if !slices.ContainsFunc(r, func(e leaderEvent) bool { return e.event == "end" && e.key == k && e.detail == "ok" }) {
				return false
			}
		}
		return true
	})
	if lease, err := client.CoordinationV1().Leases(ns).Get(ctx, "leaderreplica", metav1.GetOptions{}); err != nil {
		t.Error(err)
	} else if h := lease.Spec.HolderIdentity; h == nil || *h != "b" {
		t.Errorf("the Lease's holder is %v after the takeover, want b", h)
	}

	var resumed int64 // partition and pause: when A got its access or its CPU back
	switch mode {
	case "partition":
		// A lost its lease while cut off, and exited.
		a.wait(t, 10*time.Second)
		resumed = monotonicNow()
		proxy.restore()
	case "pause":
		resumed = monotonicNow()
		a.signal(t, syscall.SIGCONT)
		a.wait(t, 10*time.Second)
		t.Logf("pause: A exited %v after SIGCONT", time.Duration(monotonicNow()-resumed).Round(time.Millisecond))
	}
	if mode != "kill" {
		if code := a.exitCode(); code != leaderExitLost {
			t.Errorf("A exited with status %d, want %d (lease lost)", code, leaderExitLost)
		}
	}
	// B goes on leading; then it shuts down cleanly.
	time.Sleep(leaderSyncDelay)
	b.signal(t, syscall.SIGTERM)
	b.wait(t, 10*time.Second)
	if code := b.exitCode(); code != 0 {
		t.Errorf("B exited with status %d after SIGTERM, want 0", code)
	}

	checkLeaderRecords(t, mode, a.records(t), b.records(t), failed, quiet, resumed, takeover)
}

// checkLeaderRecords checks what A and B recorded. failed is when A's
// failure began; quiet, for kill and pause, when A could no longer act;
// resumed, for partition and pause, when A got its access or CPU back.
func checkLeaderRecords(t *testing.T, mode string, ra, rb []leaderEvent, failed, quiet, resumed int64, takeover time.Duration) {
	t.Helper()
	ms := func(ns int64) time.Duration { return time.Duration(ns).Round(time.Millisecond) }

	// A's activity: its syncs as intervals, and the moment of its last act.
	// Killed, A's unfinished syncs end with it. Paused, A did nothing while
	// stopped, and after SIGCONT it may only record the end of a sync that
	// the stop froze mid-way (aborted on seeing its context cancelled, or
	// failed or done when its request was already sent before the stop),
	// and that it lost the lease: no sync may start and nothing may be
	// written. Such a frozen sync's interval ends at the stop.
	frozen := map[string]bool{}
	if mode == "pause" {
		for _, e := range ra {
			switch {
			case e.at >= quiet:
			case e.event == "start":
				frozen[e.key] = true
			case e.event == "end":
				delete(frozen, e.key)
			}
		}
	}
	ia, pending := leaderIntervals(ra, func(e leaderEvent) bool {
		if mode != "pause" || e.at < quiet {
			return true
		}
		switch {
		case e.event == "lost":
		case e.event == "end" && frozen[e.key]:
			delete(frozen, e.key)
		default:
			t.Errorf("pause: A recorded %q %v after being stopped (SIGCONT %v after the stop): it acted after its lease had expired",
				e, ms(e.at-quiet), ms(resumed-quiet))
		}
		return false
	})
	for key, start := range pending {
		switch mode {
		case "kill", "pause":
			ia = append(ia, leaderInterval{key, start, quiet})
		default:
			t.Errorf("%s: A's sync of %s, started %v before the failure, never ended", mode, key, ms(failed-start))
		}
	}
	var lastA int64
	for _, i := range ia {
		lastA = max(lastA, i.end)
	}
	for _, e := range ra {
		if e.event == "write" && (mode != "pause" || e.at < quiet) {
			lastA = max(lastA, e.at)
		}
	}
	ib, pendingB := leaderIntervals(rb, func(leaderEvent) bool { return true })
	for key := range pendingB {
		t.Errorf("B's sync of %s never ended", key)
	}

	// No key is processed by both at once.
	for _, x := range ia {
		for _, y := range ib {
			if x.key == y.key && x.start < y.end && y.start < x.end {
				t.Errorf("%s: %s was processed by A [%v, %v] and B [%v, %v] at once (times from the failure)",
					mode, x.key, ms(x.start-failed), ms(x.end-failed), ms(y.start-failed), ms(y.end-failed))
			}
		}
	}
	// Stricter: A stopped before B started anything, and B started nothing
	// before the failure.
	if len(ib) == 0 {
		t.Fatalf("%s: B synced nothing", mode)
	}
	firstB := slices.MinFunc(ib, func(x, y leaderInterval) int { return int(x.start - y.start) }).start
	if firstB <= failed {
		t.Errorf("%s: B started a sync %v before A failed, while A held the lease", mode, ms(failed-firstB))
	}
	if lastA >= firstB {
		t.Errorf("%s: A's last act was %v after B's first sync began", mode, ms(lastA-firstB))
	}
	// Partitioned, A's Run returned (and the process exited) before B began.
	if mode == "partition" {
		if i := slices.IndexFunc(ra, isEvent("lost")); i < 0 {
			t.Errorf("partition: A never recorded that it lost the lease")
		} else if lost := ra[i].at; lost >= firstB {
			t.Errorf("partition: A's Run returned ErrLeadershipLost %v after the cut, %v after B's first sync began", ms(lost-failed), ms(lost-firstB))
		} else {
			t.Logf("partition: A's Run returned %v after the cut, %v before B's first sync", ms(lost-failed), ms(firstB-lost))
		}
	}
	if takeover > leaderTakeoverBound {
		t.Errorf("%s: B took over %v after the failure, want at most %v (lease %v + 2×(1+%.1f)×retry %v + slack %v)",
			mode, ms(int64(takeover)), leaderTakeoverBound, leaderLeaseDuration, leaderJitterFactor, leaderRetryPeriod, leaderTakeoverSlack)
	}
	t.Logf("%s: A's last act %v after the failure, B's first sync %v after it (bound %v); A synced %d times, B %d",
		mode, ms(lastA-failed), ms(int64(takeover)), leaderTakeoverBound, len(ia), len(ib))
}

type leaderInterval struct {
	key        string
	start, end int64
}

// leaderIntervals pairs each replica's start and end records per key
// (workloop never syncs one key on two workers at once); keep says which
// records count. Starts without an end are returned by key.
func leaderIntervals(r []leaderEvent, keep func(leaderEvent) bool) ([]leaderInterval, map[string]int64) {
	var out []leaderInterval
	open := map[string]int64{}
	for _, e := range r {
		if !keep(e) {
			continue
		}
		switch e.event {
		case "start":
			open[e.key] = e.at
		case "end":
			if s, ok := open[e.key]; ok {
				out = append(out, leaderInterval{e.key, s, e.at})
				delete(open, e.key)
			}
		}
	}
	return out, open
}

// leaderEvent is one line of a replica's record.
type leaderEvent struct {
	at                 int64 // CLOCK_MONOTONIC, ns
	event, key, detail string
}

func (e leaderEvent) String() string {
	return strings.TrimSpace(e.event + " " + e.key + " " + e.detail)
}

func isEvent(name string) func(leaderEvent) bool {
	return func(e leaderEvent) bool { return e.event == name }
}

// leaderReplica is one leaderreplica process.
type leaderReplica struct {
	id, record string
	cmd        *exec.Cmd
	done       chan struct{}
	output     *lockedBuffer
}

func buildLeaderReplica(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "leaderreplica")
	build := exec.Command("go", "build", "-o", bin, "./internal/leaderreplica")
	build.Dir = filepath.Join("..", "..", "runtime")
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building leaderreplica: %v\n%s", err, out)
	}
	return bin
}

func writeKubeconfig(t *testing.T, dir, id string, kubeconfig []byte) string {
	t.Helper()
	path := filepath.Join(dir, "kubeconfig-"+id)
	if err := os.WriteFile(path, kubeconfig, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func startLeaderReplica(t *testing.T, bin, dir, id, kubeconfig, ns string) *leaderReplica {
	t.Helper()
	r := &leaderReplica{id: id, record: filepath.Join(dir, id+".record"), done: make(chan struct{}), output: &lockedBuffer{}}
	r.cmd = exec.Command(bin, "-kubeconfig", kubeconfig, "-id", id, "-record", r.record, "-namespace", ns,
		"-lease", ns+"/leaderreplica", "-workers", "2", "-sync-delay", leaderSyncDelay.String(),
		"-lease-duration", leaderLeaseDuration.String(), "-renew-deadline", leaderRenewDeadline.String(),
		"-retry-period", leaderRetryPeriod.String())
	r.cmd.Stdout, r.cmd.Stderr = r.output, r.output
	if err := r.cmd.Start(); err != nil {
		t.Fatalf("starting replica %s: %v", id, err)
	}
	go func() { _ = r.cmd.Wait(); close(r.done) }()
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			_ = r.cmd.Process.Signal(syscall.SIGCONT)
			_ = r.cmd.Process.Kill()
			<-r.done
		}
		if t.Failed() {
			data, _ := os.ReadFile(r.record)
			t.Logf("replica %s's record:\n%s\nits output:\n%s", id, data, r.output)
		}
	})
	return r
}

func (r *leaderReplica) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := r.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("sending %v to replica %s: %v", sig, r.id, err)
	}
}

func (r *leaderReplica) wait(t *testing.T, limit time.Duration) {
	t.Helper()
	select {
	case <-r.done:
	case <-time.After(limit):
		t.Fatalf("replica %s did not exit within %v", r.id, limit)
	}
}

func (r *leaderReplica) exitCode() int { return r.cmd.ProcessState.ExitCode() }

// records reads the replica's record; a last line still being written is
// left out.
func (r *leaderReplica) records(t *testing.T) []leaderEvent {
	t.Helper()
	data, err := os.ReadFile(r.record)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		data = data[:i+1]
	} else {
		data = nil
	}
	var out []leaderEvent
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			t.Fatalf("replica %s: bad record line %q", r.id, sc.Text())
		}
		at, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			t.Fatalf("replica %s: bad record line %q", r.id, sc.Text())
		}
		e := leaderEvent{at: at, event: f[1]}
		if len(f) > 2 {
			e.key = f[2]
		}
		if len(f) > 3 {
			e.detail = f[3]
		}
		out = append(out, e)
	}
	return out
}

// waitRecord polls r's record until done holds, and returns it.
func waitRecord(t *testing.T, r *leaderReplica, what string, done func([]leaderEvent) bool) []leaderEvent {
	t.Helper()
	deadline := time.Now().Add(e2eConvergeTimeout)
	for {
		rec := r.records(t)
		if done(rec) {
			return rec
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: not within %v", what, e2eConvergeTimeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitFreshSync waits until a sync of r's started less than a quarter of
// the sync delay ago and has not written yet, and returns its start.
func waitFreshSync(t *testing.T, r *leaderReplica) leaderEvent {
	t.Helper()
	var fresh leaderEvent
	waitRecord(t, r, "a sync of "+r.id+"'s to start", func(rec []leaderEvent) bool {
		now := monotonicNow()
		open := map[string]leaderEvent{}
		for _, e := range rec {
			switch e.event {
			case "start":
				open[e.key] = e
			case "write", "end":
				delete(open, e.key)
			}
		}
		for _, e := range open {
			if time.Duration(now-e.at) < leaderSyncDelay/4 {
				fresh = e
				return true
			}
		}
		return false
	})
	return fresh
}

// waitStopped waits until the process is in the stopped state.
func waitStopped(t *testing.T, r *leaderReplica) {
	t.Helper()
	stat := filepath.Join("/proc", strconv.Itoa(r.cmd.Process.Pid), "stat")
	e2eEventually(t, "replica "+r.id+" to be stopped", func() error {
		data, err := os.ReadFile(stat)
		if err != nil {
			return err
		}
		// pid (comm) state …: the state follows the last ')'.
		if f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:])); len(f) == 0 || f[0] != "T" {
			return fmt.Errorf("state %q", f)
		}
		return nil
	})
}

// monotonicNow is CLOCK_MONOTONIC, the clock of the replicas' records.
func monotonicNow() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		panic(err)
	}
	return ts.Nano()
}

// leaderProxy forwards TCP connections to the API server until cut. Cut,
// it closes the connections it carries and accepts new ones without
// forwarding anything on them: requests in flight fail, later ones hang
// until their deadline, as behind a firewall that drops packets. Restored,
// it closes the held connections and forwards again.
type leaderProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	isCut  bool
	conns  map[net.Conn]bool // open connections, both sides
	held   []net.Conn
}

func startLeaderProxy(t *testing.T, target string) *leaderProxy {
	t.Helper()
	if i := strings.Index(target, "://"); i >= 0 {
		target = target[i+3:]
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &leaderProxy{ln: ln, target: strings.TrimSuffix(target, "/"), conns: map[net.Conn]bool{}}
	go p.serve()
	t.Cleanup(p.close)
	return p
}

// kubeconfig is kubeconfig with the API server's address replaced by the
// proxy's; the serving certificate is for 127.0.0.1, whatever the port.
func (p *leaderProxy) kubeconfig(t *testing.T, kubeconfig []byte, host string) []byte {
	t.Helper()
	if !bytes.Contains(kubeconfig, []byte(p.target)) {
		t.Fatalf("the kubeconfig does not name the API server %s (host %s):\n%s", p.target, host, kubeconfig)
	}
	return bytes.ReplaceAll(kubeconfig, []byte(p.target), []byte(p.ln.Addr().String()))
}

func (p *leaderProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.isCut {
			p.held = append(p.held, c)
			p.mu.Unlock()
			continue
		}
		p.mu.Unlock()
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		if p.isCut {
			p.mu.Unlock()
			c.Close()
			up.Close()
			continue
		}
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		pipe := func(dst, src net.Conn) {
			_, _ = io.Copy(dst, src)
			dst.Close()
			src.Close()
			p.mu.Lock()
			delete(p.conns, dst)
			delete(p.conns, src)
			p.mu.Unlock()
		}
		go pipe(up, c)
		go pipe(c, up)
	}
}

func (p *leaderProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.isCut = true
	for c := range p.conns {
		c.Close()
	}
}

func (p *leaderProxy) restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.isCut = false
	for _, c := range p.held {
		c.Close()
	}
	p.held = nil
}

func (p *leaderProxy) close() {
	p.ln.Close()
	p.cut()
	p.restore()
}
