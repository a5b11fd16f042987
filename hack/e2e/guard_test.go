//go:build e2e

package e2e

// The example controller (runtime/examples/guard), as the program a
// controller author would build, against a real kube-apiserver and etcd
// started by envtest from the binaries hack/e2e-binaries.sh builds. Run with
// `make e2e` (docs/e2e.md). envtest runs no kube-controller-manager, hence no
// garbage collector: the owner references are checked, GC deletion is not.
//
// The example is a main package of the runtime module, which must not
// require controller-runtime (envtest): so the test lives here and runs the
// program, and reads only what the API server shows.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// What the example controller names and reads (runtime/examples/guard).
const guardAnnotation = "ctrllint.dev/guard"

func guardPDBName(deployment string) string { return deployment + "-pdb" }

func guardServiceAccountName(deployment string) string { return deployment + "-guard" }

const (
	// How long the controller gets to converge after a change.
	e2eConvergeTimeout = 30 * time.Second
	// How long a change made right after kube-apiserver comes back may
	// wait to be seen: a reflector whose watch broke retries with
	// client-go's backoff (800 ms doubling to 30 s, each wait up to twice
	// that with jitter), so one informer may be between two attempts for
	// up to a minute, and sees the change at the relist after it. Children
	// created before that prove the other informers are back, not this one.
	e2eWatchBackTimeout = 60*time.Second + e2eConvergeTimeout
	// How long an absence must last to count as "never created".
	e2eStayAbsent   = 3 * time.Second
	e2ePollInterval = 100 * time.Millisecond
)

// e2eControlPlane starts kube-apiserver and etcd on 127.0.0.1 and stops them
// (apiserver first) when the test ends.
func e2eControlPlane(t *testing.T) (*rest.Config, *envtest.Environment) {
	t.Helper()
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		t.Fatal("KUBEBUILDER_ASSETS is not set: it must name the directory holding kube-apiserver and etcd; " +
			"build them with hack/e2e-binaries.sh, or run `make e2e`")
	}
	env := &envtest.Environment{}
	// kube-apiserver advertises the host's default-route address unless told
	// otherwise, and refuses a loopback one with the default endpoint
	// reconciler: keep the whole control plane on 127.0.0.1.
	env.ControlPlane.GetAPIServer().Configure().
		Set("advertise-address", "127.0.0.1").
		Set("endpoint-reconciler-type", "none")
	// A directory of our own keeps the serving certificates across a restart
	// of kube-apiserver: envtest makes new ones, under a new CA, in a
	// directory it allocated itself.
	env.ControlPlane.GetAPIServer().CertDir = t.TempDir()
	start := time.Now()
	cfg, err := env.Start()
	if err != nil {
		_ = env.Stop() // whatever did start
		t.Fatalf("starting the control plane from %s: %v", os.Getenv("KUBEBUILDER_ASSETS"), err)
	}
	t.Cleanup(func() {
		// Stop ends kube-apiserver before etcd; both at once can hang.
		if err := env.Stop(); err != nil {
			t.Errorf("stopping the control plane: %v", err)
		}
	})
	t.Logf("control plane up in %v at %s", time.Since(start).Round(time.Millisecond), cfg.Host)
	return cfg, env
}

func TestGuardControllerE2E(t *testing.T) {
	cfg, env := e2eControlPlane(t)
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	guard := startGuard(t, env)

	ns := "guard-e2e"
	if _, err := client.CoreV1().Namespaces().Create(ctx,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	// The plain Deployment first, so the controller has seen it by the time
	// the guarded one's children exist.
	plain, err := client.AppsV1().Deployments(ns).Create(ctx, e2eDeployment(ns, "plain", nil), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	guarded, err := client.AppsV1().Deployments(ns).Create(ctx,
		e2eDeployment(ns, "web", map[string]string{guardAnnotation: "true"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// An opted-in Deployment gets a PodDisruptionBudget and a ServiceAccount,
	// both controlled by it.
	start := time.Now()
	e2eEventually(t, "PodDisruptionBudget "+guardPDBName(guarded.Name)+" controlled by Deployment web", func() error {
		pdb, err := client.PolicyV1().PodDisruptionBudgets(ns).Get(ctx, guardPDBName(guarded.Name), metav1.GetOptions{})
		if err != nil {
			return err
		}
		return e2eControlledBy(pdb.OwnerReferences, guarded)
	})
	var saUID types.UID
	e2eEventually(t, "ServiceAccount "+guardServiceAccountName(guarded.Name)+" controlled by Deployment web", func() error {
		sa, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, guardServiceAccountName(guarded.Name), metav1.GetOptions{})
		if err != nil {
			return err
		}
		saUID = sa.UID
		return e2eControlledBy(sa.OwnerReferences, guarded)
	})
	t.Logf("children of web created in %v", time.Since(start).Round(time.Millisecond))

	// A Deployment without the annotation gets nothing.
	e2eConsistently(t, "no children for Deployment plain", func() error {
		if _, err := client.PolicyV1().PodDisruptionBudgets(ns).Get(ctx, guardPDBName(plain.Name), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("PodDisruptionBudget %s: want NotFound, got %v", guardPDBName(plain.Name), err)
		}
		if _, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, guardServiceAccountName(plain.Name), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("ServiceAccount %s: want NotFound, got %v", guardServiceAccountName(plain.Name), err)
		}
		return nil
	})

	// A deleted child is re-created.
	start = time.Now()
	if err := client.CoreV1().ServiceAccounts(ns).Delete(ctx, guardServiceAccountName(guarded.Name), metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	e2eEventually(t, "ServiceAccount "+guardServiceAccountName(guarded.Name)+" re-created", func() error {
		sa, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, guardServiceAccountName(guarded.Name), metav1.GetOptions{})
		if err != nil {
			return err
		}
		if sa.UID == saUID {
			return fmt.Errorf("still the deleted ServiceAccount (UID %s)", saUID)
		}
		return e2eControlledBy(sa.OwnerReferences, guarded)
	})
	t.Logf("ServiceAccount re-created in %v", time.Since(start).Round(time.Millisecond))

	// Opting out releases the children: the controller deletes them.
	start = time.Now()
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d, err := client.AppsV1().Deployments(ns).Get(ctx, guarded.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		delete(d.Annotations, guardAnnotation)
		_, err = client.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
		return err
	}); err != nil {
		t.Fatalf("removing the annotation: %v", err)
	}
	e2eEventually(t, "children of web deleted after the annotation is removed", func() error {
		if _, err := client.PolicyV1().PodDisruptionBudgets(ns).Get(ctx, guardPDBName(guarded.Name), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("PodDisruptionBudget %s: want NotFound, got %v", guardPDBName(guarded.Name), err)
		}
		if _, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, guardServiceAccountName(guarded.Name), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("ServiceAccount %s: want NotFound, got %v", guardServiceAccountName(guarded.Name), err)
		}
		return nil
	})
	t.Logf("children of web deleted in %v", time.Since(start).Round(time.Millisecond))

	// SIGTERM stops the controller cleanly.
	start = time.Now()
	if err := guard.stop(); err != nil {
		t.Fatal(err)
	}
	t.Logf("the controller exited %v after SIGTERM", time.Since(start).Round(time.Millisecond))
}

// TestAPIServerRestartE2E: kube-apiserver stops while the controller is
// reconciling a batch of Deployments and comes back a few seconds later on
// the same address, with etcd and its data kept. The controller's writes
// fail meanwhile and its watches break; afterwards every Deployment has
// its children, the watches deliver again (a deleted child is re-created),
// the controller has not exited, and it exits 0 on SIGTERM.
func TestAPIServerRestartE2E(t *testing.T) {
	const deployments = 20
	const down = 3 * time.Second
	cfg, env := e2eControlPlane(t)
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	guard := startGuard(t, env)

	ns := "guard-restart"
	if _, err := client.CoreV1().Namespaces().Create(ctx,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var created []*appsv1.Deployment
	for i := range deployments {
		d, err := client.AppsV1().Deployments(ns).Create(ctx,
			e2eDeployment(ns, fmt.Sprintf("web-%02d", i), map[string]string{guardAnnotation: "true"}), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created = append(created, d)
	}
	// Mid-reconcile: the Deployments were created just now. A crash rather
	// than a graceful stop: with the controller's watches open, a SIGTERMed
	// kube-apiserver waits its full 60 s shutdown timeout for them, serving
	// the in-flight requests meanwhile.
	api := env.ControlPlane.GetAPIServer()
	// The controller runs in its own process, which may still be starting:
	// the kill waits for its first child, so that it lands mid-reconcile.
	var made int
	for deadline := time.Now().Add(e2eConvergeTimeout); made == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the controller made no child within %v", e2eConvergeTimeout)
		}
		pdbs, err := client.PolicyV1().PodDisruptionBudgets(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		accounts, err := client.CoreV1().ServiceAccounts(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		made = len(pdbs.Items) + len(accounts.Items)
	}
	e2eKillAPIServer(t, api.CertDir)
	killed := time.Now()
	t.Logf("kube-apiserver killed with %d of %d children created (as last listed)", made, 2*deployments)
	time.Sleep(down)
	if exited, err := guard.exited(); exited {
		t.Fatalf("the controller exited while kube-apiserver was down: %v", err)
	}
	// Start makes a new process on the same address, with the same
	// certificates (the directory is ours) and etcd's data.
	if err := api.Start(); err != nil {
		t.Fatalf("starting kube-apiserver again: %v", err)
	}
	restarted := time.Now()
	t.Logf("kube-apiserver killed, back %v later", restarted.Sub(killed).Round(time.Millisecond))

	for _, d := range created {
		e2eEventually(t, "children of "+d.Name+" after the restart", func() error {
			pdb, err := client.PolicyV1().PodDisruptionBudgets(ns).Get(ctx, guardPDBName(d.Name), metav1.GetOptions{})
			if err != nil {
				return err
			}
			if err := e2eControlledBy(pdb.OwnerReferences, d); err != nil {
				return err
			}
			sa, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, guardServiceAccountName(d.Name), metav1.GetOptions{})
			if err != nil {
				return err
			}
			return e2eControlledBy(sa.OwnerReferences, d)
		})
	}
	t.Logf("all children present %v after the restart", time.Since(restarted).Round(time.Millisecond))

	// The watches are back: a deletion is seen and repaired.
	first := created[0]
	sa, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, guardServiceAccountName(first.Name), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.CoreV1().ServiceAccounts(ns).Delete(ctx, sa.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	e2eEventuallyWithin(t, e2eWatchBackTimeout, "ServiceAccount "+sa.Name+" re-created after the restart", func() error {
		got, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, sa.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if got.UID == sa.UID {
			return fmt.Errorf("still the deleted ServiceAccount (UID %s)", sa.UID)
		}
		return nil
	})

	if err := guard.stop(); err != nil {
		t.Fatal(err)
	}
}

// guardProcess is the example controller, running.
type guardProcess struct {
	cmd    *exec.Cmd
	done   chan struct{} // closed when the process has exited
	err    error         // cmd.Wait's, once done is closed
	output *lockedBuffer
}

// startGuard builds the example controller from the runtime module and runs
// it against env, with two workers. It is stopped, if the test has not
// stopped it, before the control plane (cleanups run last-registered first);
// its output is logged when the test fails.
func startGuard(t *testing.T, env *envtest.Environment) *guardProcess {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "guard")
	build := exec.Command("go", "build", "-o", bin, "./examples/guard")
	build.Dir = filepath.Join("..", "..", "runtime")
	// As a controller author builds it: with the runtime module's own
	// requirements, not the workspace's.
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the example controller: %v\n%s", err, out)
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	g := &guardProcess{cmd: exec.Command(bin, "-kubeconfig", kubeconfig, "-workers", "2"), done: make(chan struct{}), output: &lockedBuffer{}}
	g.cmd.Stdout, g.cmd.Stderr = g.output, g.output
	if err := g.cmd.Start(); err != nil {
		t.Fatalf("starting the example controller: %v", err)
	}
	go func() { g.err = g.cmd.Wait(); close(g.done) }()
	t.Cleanup(func() {
		if exited, _ := g.exited(); !exited {
			if err := g.stop(); err != nil {
				t.Error(err)
			}
		}
		if t.Failed() {
			t.Logf("the example controller's output:\n%s", g.output)
		}
	})
	return g
}

// exited reports whether the process has exited, and how.
func (g *guardProcess) exited() (bool, error) {
	select {
	case <-g.done:
		return true, g.err
	default:
		return false, nil
	}
}

// stop sends SIGTERM and waits for the process to exit 0, at most 10s
// (then it is killed).
func (g *guardProcess) stop() error {
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("signalling the example controller: %w", err)
	}
	select {
	case <-g.done:
	case <-time.After(10 * time.Second):
		_ = g.cmd.Process.Kill()
		<-g.done
		return errors.New("the example controller did not exit within 10s of SIGTERM")
	}
	if g.err != nil {
		return fmt.Errorf("the example controller exited with %v after SIGTERM, want exit status 0", g.err)
	}
	return nil
}

// lockedBuffer collects the process's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// e2eKillAPIServer kills (SIGKILL) the kube-apiserver serving from
// certDir, a directory of this test's own, and waits for it to be gone.
func e2eKillAPIServer(t *testing.T, certDir string) {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue // gone meanwhile
		}
		args := strings.Split(string(cmdline), "\x00")
		if filepath.Base(args[0]) != "kube-apiserver" || !slices.Contains(args, "--cert-dir="+certDir) {
			continue
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatalf("killing kube-apiserver (pid %d): %v", pid, err)
		}
		e2eEventually(t, "kube-apiserver to be gone", func() error {
			if _, err := os.Stat(filepath.Join("/proc", e.Name())); err == nil {
				return fmt.Errorf("pid %d still exists", pid)
			}
			return nil
		})
		return
	}
	t.Fatalf("no kube-apiserver process with --cert-dir=%s", certDir)
}

// e2eDeployment is a valid Deployment; envtest runs no controllers, so no Pods
// are ever made from it.
func e2eDeployment(ns, name string, annotations map[string]string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	replicas := int32(2)
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: annotations},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{Name: "app", Image: "registry.k8s.io/pause:3.10"}},
				},
			},
		},
	}
}

// e2eControlledBy reports whether refs hold exactly one controller reference,
// and it names d and blocks its deletion.
func e2eControlledBy(refs []metav1.OwnerReference, d *appsv1.Deployment) error {
	var controllers []metav1.OwnerReference
	for _, r := range refs {
		if r.Controller != nil && *r.Controller {
			controllers = append(controllers, r)
		}
	}
	if len(controllers) != 1 {
		return fmt.Errorf("want exactly one controller owner reference, have %d in %+v", len(controllers), refs)
	}
	r := controllers[0]
	switch {
	case r.APIVersion != "apps/v1" || r.Kind != "Deployment" || r.Name != d.Name:
		return fmt.Errorf("controller reference names %s %s %q, want apps/v1 Deployment %q", r.APIVersion, r.Kind, r.Name, d.Name)
	case r.UID != d.UID:
		return fmt.Errorf("controller reference has UID %s, want the Deployment's %s", r.UID, d.UID)
	case r.BlockOwnerDeletion == nil || !*r.BlockOwnerDeletion:
		return errors.New("controller reference does not set BlockOwnerDeletion")
	}
	return nil
}

// e2eEventually polls check until it returns nil, failing the test with the last
// error after e2eConvergeTimeout.
func e2eEventually(t *testing.T, what string, check func() error) {
	t.Helper()
	e2eEventuallyWithin(t, e2eConvergeTimeout, what, check)
}

// e2eEventuallyWithin is e2eEventually with its own timeout.
func e2eEventuallyWithin(t *testing.T, timeout time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v: %v", what, timeout, err)
		}
		time.Sleep(e2ePollInterval)
	}
}

// e2eConsistently polls check for e2eStayAbsent, failing the test on the first error.
func e2eConsistently(t *testing.T, what string, check func() error) {
	t.Helper()
	for deadline := time.Now().Add(e2eStayAbsent); time.Now().Before(deadline); time.Sleep(e2ePollInterval) {
		if err := check(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
}
