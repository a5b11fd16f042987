//go:build e2e

// Package e2e holds the end-to-end tests: the reference runtime's example
// controller against a real control plane (guard_test.go, `make e2e`), two
// replicas of a controller on the runtime's leader election whose leader is
// killed, partitioned and stopped (leader_test.go, `make e2e`), and this
// smoke test of the infrastructure on its own: the kube-apiserver and etcd
// built by hack/e2e-binaries.sh start under envtest on loopback, serve
// requests and stop cleanly (`make e2e-smoke`).
package e2e

import (
	"context"
	"os"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

func TestControlPlaneSmoke(t *testing.T) {
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
	start := time.Now()
	cfg, err := env.Start()
	if err != nil {
		_ = env.Stop() // whatever did start
		t.Fatalf("starting the control plane: %v", err)
	}
	t.Cleanup(func() {
		// Stop ends kube-apiserver before etcd.
		if err := env.Stop(); err != nil {
			t.Errorf("stopping the control plane: %v", err)
		}
	})
	t.Logf("control plane up in %v at %s", time.Since(start).Round(time.Millisecond), cfg.Host)

	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	version, err := client.Discovery().ServerVersion()
	if err != nil {
		t.Fatalf("server version: %v", err)
	}
	t.Logf("kube-apiserver %s", version.GitVersion)
	namespaces, err := client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("listing namespaces: %v", err)
	}
	names := map[string]bool{}
	for _, ns := range namespaces.Items {
		names[ns.Name] = true
	}
	for _, want := range []string{"default", "kube-system"} {
		if !names[want] {
			t.Errorf("namespace %q missing; have %v", want, names)
		}
	}
}
