// Package docs_test holds docs/runtime.md to what it tells a controller
// author: its recipe for using the runtime from a clone works without the
// module proxy, and its wiring compiles and delivers keys to the sync.
package docs_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

const (
	runtimePath = "github.com/ctrllint/ctrllint/runtime"
	// placeholder is where docs/runtime.md's commands name the clone.
	placeholder = "/path/to/ctrllint"
)

// TestRecipeOffline runs docs/runtime.md's recipe as the page shows it: its
// setup commands, its main.go, its build commands, in a new module, against
// a module proxy that refuses every request with a 403 as the real proxy
// refuses the runtime. With GOPROXY=off instead, a go get of the replaced
// module succeeds (the go command takes "lookup disabled" for "no versions"
// and makes up a pseudo-version), so that could not catch the recipe the
// page used to show, which the real proxy's 403 broke.
func TestRecipeOffline(t *testing.T) {
	repo, runtimeDir := checkout(t)
	page := readPage(t, repo)
	setup := block(t, page, "recipe-setup", "sh")
	wiring := block(t, page, "recipe-wiring", "go")
	build := block(t, page, "recipe-build", "sh")
	if !strings.Contains(setup, placeholder) {
		t.Fatalf("docs/runtime.md's recipe-setup block does not name the clone as %s:\n%s", placeholder, setup)
	}
	// The module cache must hold what the runtime needs; this is the only
	// step that may use the network (none when the cache is complete).
	gocmd(t, runtimeDir, nil, "mod", "download")

	proxy := newRefusingProxy(t)
	dir := t.TempDir()
	shell(t, dir, proxy.env(), strings.ReplaceAll(setup, placeholder, repo))
	writeFile(t, filepath.Join(dir, "main.go"), wiring)
	shell(t, dir, proxy.env(), build)
	if asked := proxy.requests(); len(asked) > 0 {
		t.Errorf("docs/runtime.md's recipe asked the module proxy for %q", asked)
	}

	// The runtime came from the clone, at the version the page requires.
	got := strings.TrimSpace(gocmd(t, dir, proxy.env(), "list", "-m", "-f", "{{.Version}} {{with .Replace}}{{.Dir}}{{end}}", runtimePath))
	if want := "v0.0.0 " + runtimeDir; got != want {
		t.Errorf("go list -m %s after the recipe: %q, want %q", runtimePath, got, want)
	}

	// The wiring delivers an informer's object to the sync, and stops.
	writeFile(t, filepath.Join(dir, "wiring_test.go"), wiringTest)
	if out := gocmd(t, dir, proxy.env(), "test", "-count=1", "-run", "^TestWiring$", "."); !strings.Contains(out, "ok") {
		t.Errorf("go test of the page's main.go:\n%s", out)
	}
}

// TestRefusingProxyCatchesLookups: the proxy above sees the request the
// page's old recipe made (go get after a replace), and that request fails
// as it did for the user against the real proxy. Without this, a recipe that
// asks the proxy could pass TestRecipeOffline on a proxy that is never asked.
func TestRefusingProxyCatchesLookups(t *testing.T) {
	_, runtimeDir := checkout(t)
	proxy := newRefusingProxy(t)
	dir := t.TempDir()
	gocmd(t, dir, proxy.env(), "mod", "init", "example.com/oldrecipe")
	gocmd(t, dir, proxy.env(), "mod", "edit", "-replace="+runtimePath+"="+runtimeDir)
	cmd := exec.CommandContext(t.Context(), "go", "get", runtimePath)
	cmd.Dir, cmd.Env = dir, proxy.env()
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("go get %s after a replace succeeded against a proxy that refuses it:\n%s", runtimePath, out)
	}
	if !bytes.Contains(out, []byte("403 Forbidden")) {
		t.Errorf("go get failed, but not on the proxy's 403:\n%s", out)
	}
	if asked := proxy.requests(); !slices.Contains(asked, "/"+runtimePath+"/@v/list") {
		t.Errorf("the proxy saw %q, want a lookup of %s's versions", asked, runtimePath)
	}
}

// checkout returns the repository's and the runtime module's directories,
// or skips when the runtime is not in a checkout of ctrllint (a module
// downloaded from a proxy holds no docs/).
func checkout(t *testing.T) (repo, runtimeDir string) {
	t.Helper()
	runtimeDir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	repo = filepath.Dir(runtimeDir)
	gomod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil || !bytes.HasPrefix(gomod, []byte("module github.com/ctrllint/ctrllint\n")) {
		t.Skipf("%s is not in a checkout of ctrllint: no docs/runtime.md to check", runtimeDir)
	}
	return repo, runtimeDir
}

func readPage(t *testing.T, repo string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, "docs", "runtime.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// block is the fenced block of language lang between <!-- name:begin -->
// and <!-- name:end --> in page.
func block(t *testing.T, page, name, lang string) string {
	t.Helper()
	re := regexp.MustCompile("(?s)<!-- " + regexp.QuoteMeta(name) + ":begin -->\n```" + lang + "\n(.*?)```\n<!-- " + regexp.QuoteMeta(name) + ":end -->")
	m := re.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("docs/runtime.md has no ```%s block between <!-- %s:begin --> and <!-- %s:end -->", lang, name, name)
	}
	return m[1]
}

// refusingProxy is a module proxy that answers every request 403, as the
// real proxy answers for the runtime, and records what it was asked.
type refusingProxy struct {
	url   string
	mu    sync.Mutex
	paths []string
}

func newRefusingProxy(t *testing.T) *refusingProxy {
	p := &refusingProxy{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.paths = append(p.paths, r.URL.Path)
		p.mu.Unlock()
		http.Error(w, "This module version is not available.", http.StatusForbidden)
	}))
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}

func (p *refusingProxy) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.paths...)
}

// env is the environment of a go command that can reach no module source
// but the module cache. The checksum database is off: the go command asks
// it (through the proxy) for every module new to a go.sum unless it cached
// the answer, which it did not when the module was downloaded for a go.sum
// that had it (the runtime's own); what is in the module cache was checked
// against a go.sum or the database when it was downloaded.
func (p *refusingProxy) env() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
		"GOPROXY="+p.url, "GOSUMDB=off", "GOPRIVATE=", "GONOPROXY=", "GONOSUMDB=")
}

// shell runs a block of the page's commands with sh -e, each echoed.
func shell(t *testing.T, dir string, env []string, script string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "sh", "-ex", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("docs/runtime.md's commands failed in %s: %v\n%s", dir, err, out)
	}
}

// gocmd runs the go command in dir (env nil: the test's own environment,
// GOWORK off) and returns its output.
func gocmd(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	if env == nil {
		env = append(os.Environ(), "GOWORK=off")
	}
	cmd := exec.CommandContext(t.Context(), "go", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wiringTest runs the page's run (its main.go's) on a fake clientset with
// one Deployment: the sync must print its key, and run must return nil
// once its context is cancelled.
const wiringTest = `package main

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

func TestWiring(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w // the page's sync prints what it synced
	defer func() { os.Stdout = stdout }()
	lines := make(chan string, 100)
	go func() {
		for s := bufio.NewScanner(r); s.Scan(); {
			lines <- s.Text()
		}
	}()

	client := fake.NewClientset(&appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
		Status:     appsv1.DeploymentStatus{Replicas: 3},
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, client) }()

	timeout := time.After(time.Minute)
	for synced := false; !synced; {
		select {
		case line := <-lines:
			stdout.WriteString(line + "\n")
			synced = strings.Contains(line, "default/web")
		case err := <-done:
			t.Fatalf("run returned before syncing default/web: %v", err)
		case <-timeout:
			t.Fatal("the sync never printed default/web")
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run after cancel: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("run did not return after its context was cancelled")
	}
}
`
