// Command guard is a controller built from the reference runtime: every
// Deployment annotated ctrllint.dev/guard=true gets its own
// PodDisruptionBudget and ServiceAccount, owned by it. Deleted children are
// re-created; removing the annotation deletes them; deleting the
// Deployment leaves them to the garbage collector.
//
// It is laid out like k8s.io/sample-controller (main.go wires the clients
// and informers, controller.go holds the sync) so it can be copied as the
// start of a controller. Against a cluster:
//
//	go run github.com/ctrllint/ctrllint/runtime/examples/guard -kubeconfig ~/.kube/config
//
// On SIGINT or SIGTERM it takes no new key, lets the syncs in flight
// finish and exits 0.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "path to a kubeconfig; empty means the in-cluster configuration")
	workers := flag.Int("workers", 2, "how many Deployments are synced at once")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "guard: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := runController(ctx, *kubeconfig, *workers)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "guard: %v\n", err)
		os.Exit(1)
	}
}

// runController runs the controller until ctx is cancelled and its syncs in
// flight have returned.
func runController(ctx context.Context, kubeconfig string, workers int) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("loading the client configuration: %w", err)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	c := New(client, factory)
	factory.Start(ctx.Done())
	// Run returns once ctx is cancelled; the informers stop with it.
	defer factory.Shutdown()
	return c.Run(ctx, workers)
}
