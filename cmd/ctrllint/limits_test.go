package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// deepWorker is a worker loop of a package nested one function deeper
// than tombstone's maxWorkerDepth follows: summarising it reaches the
// bound.
const deepWorker = `package deep

import (
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

func RunDeep(q workqueue.TypedRateLimitingInterface[string], sync func(string, string) error) { run1(q, sync) }

func run1(q workqueue.TypedRateLimitingInterface[string], sync func(string, string) error) { run2(q, sync) }
func run2(q workqueue.TypedRateLimitingInterface[string], sync func(string, string) error) { run3(q, sync) }
func run3(q workqueue.TypedRateLimitingInterface[string], sync func(string, string) error) { run4(q, sync) }
func run4(q workqueue.TypedRateLimitingInterface[string], sync func(string, string) error) {
	for next(q, sync) {
	}
}

func next(q workqueue.TypedRateLimitingInterface[string], sync func(string, string) error) bool {
	key, quit := q.Get()
	if quit {
		return false
	}
	defer q.Done(key)
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err == nil {
		err = sync(namespace, name)
	}
	if err != nil {
		q.AddRateLimited(key)
		return true
	}
	q.Forget(key)
	return true
}
`

// An analysis bound reached is said with -v, on stderr, where it was
// reached; it is no finding: the run is clean, stdout empty, and without
// -v nothing is said.
func TestLimitsVerbose(t *testing.T) {
	fixture := filepath.Join("..", "..", "testdata", "src", "current")
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(fixture, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "deep", "deep.go"), []byte(deepWorker), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}
	line := strings.Count(deepWorker[:strings.Index(deepWorker, "	for next(q, sync)")], "\n") + 1
	want := regexp.MustCompile(`(?m)^ctrllint: tombstone: analysis limit reached in package example.com/current/deep at deep/deep.go:` + strconv.Itoa(line) + `: maxWorkerDepth: .+$`)

	r := runBinary(t, ctrllintBin, dir, env, "-v", "-cache=false", "./...")
	if r.code != exitClean || r.stdout != "" || !want.MatchString(r.stderr) || strings.Count(r.stderr, "analysis limit") != 1 {
		t.Errorf("-v: exit %d, stdout %q, stderr %q; want exit 0, no findings, and one line matching %s", r.code, r.stdout, r.stderr, want)
	}
	r = runBinary(t, ctrllintBin, dir, env, "-cache=false", "./...")
	if r.code != exitClean || r.stdout != "" || r.stderr != "" {
		t.Errorf("without -v: exit %d, stdout %q, stderr %q; want nothing", r.code, r.stdout, r.stderr)
	}

	// A warm run takes the package's findings from the result cache and
	// tells the bound its analysis reached as the cold run did.
	cached := append(env, "CTRLLINT_CACHE="+t.TempDir())
	for _, run := range []string{"cold", "warm"} {
		r = runBinary(t, ctrllintBin, dir, cached, "-v", "./...")
		if r.code != exitClean || !want.MatchString(r.stderr) || strings.Count(r.stderr, "analysis limit") != 1 {
			t.Errorf("-v, %s cache: exit %d, stderr %q; want exit 0 and one line matching %s", run, r.code, r.stderr, want)
		}
	}
	if !strings.Contains(r.stderr, "from cache") {
		t.Errorf("the warm run took nothing from the cache: %q", r.stderr)
	}
}
