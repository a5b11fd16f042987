// Package modgraph_test holds the runtime module to what it promises a
// controller author (docs/runtime.md): importing it adds no module to their
// graph that client-go does not bring, and raises no version client-go does
// not ask for.
package modgraph_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestGraphIsClientGos(t *testing.T) {
	runtimeDir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// What a controller that requires the runtime has in its graph (the
	// runtime module is the main module in neither: only its go.mod's
	// requirements reach a consumer) ...
	withRuntime := modules(t, scratchModule(t, "require "+runtimePath+" v0.0.0\n\nreplace "+runtimePath+" => "+runtimeDir+"\n"))
	delete(withRuntime, runtimePath)
	clientGo, ok := withRuntime["k8s.io/client-go"]
	if !ok {
		t.Fatal("k8s.io/client-go is not in the graph of a module that requires the runtime")
	}
	// ... and what it has on client-go alone, at the same version.
	alone := modules(t, scratchModule(t, "require k8s.io/client-go "+clientGo+"\n"))
	for path, v := range withRuntime {
		switch w, ok := alone[path]; {
		case !ok:
			t.Errorf("the runtime brings %s %s, which client-go %s does not", path, v, clientGo)
		case w != v:
			t.Errorf("the runtime raises %s to %s; client-go %s asks for %s", path, v, clientGo, w)
		}
	}
}

const runtimePath = "github.com/ctrllint/ctrllint/runtime"

// scratchModule writes a module with the given go.mod lines (after module
// and go) in a temporary directory and returns the directory.
func scratchModule(t *testing.T, lines string) string {
	t.Helper()
	dir := t.TempDir()
	gomod := "module example.com/scratch\n\ngo 1.26.0\n\n" + lines
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// modules is `go list -m all` in dir, without the main module: path →
// version. The module's own go.mod decides, not a go.work.
func modules(t *testing.T, dir string) map[string]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-m", "-json", "all")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m all in %s: %v\n%s", dir, err, stderr.Bytes())
	}
	mods := map[string]string{}
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var m struct {
			Path, Version string
			Main          bool
		}
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("go list -m -json all in %s: %v", dir, err)
		}
		if !m.Main {
			mods[m.Path] = m.Version
		}
	}
	return mods
}
