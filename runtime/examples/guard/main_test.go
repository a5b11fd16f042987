package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunControllerBadKubeconfig: a kubeconfig that cannot be read is an
// error that names it, before anything starts.
func TestRunControllerBadKubeconfig(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "kubeconfig")
	err := runController(context.Background(), missing, 2)
	if err == nil || !strings.Contains(err.Error(), "loading the client configuration") || !strings.Contains(err.Error(), missing) {
		t.Fatalf("runController with a missing kubeconfig: %v, want an error naming %s", err, missing)
	}
}
