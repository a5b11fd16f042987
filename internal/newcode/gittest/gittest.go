// Package gittest builds real git repositories for tests, on a machine
// without any git configuration (CI's): the identity comes from the
// environment, and the user's and the system's configuration are ignored
// so that they cannot change what a test sees.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Env is the environment git runs with in these tests: no configuration
// but the repository's own, a fixed identity and fixed dates.
var Env = []string{
	"GIT_CONFIG_GLOBAL=" + os.DevNull,
	"GIT_CONFIG_NOSYSTEM=1",
	"GIT_AUTHOR_NAME=ctrllint test", "GIT_AUTHOR_EMAIL=test@example.com",
	"GIT_COMMITTER_NAME=ctrllint test", "GIT_COMMITTER_EMAIL=test@example.com",
	"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
}

// Isolate gives the process Env for the rest of the test, so that the
// code under test, which runs git itself, sees no configuration but the
// repository's either.
func Isolate(t *testing.T) {
	for _, kv := range Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// A Repo is a git working tree in a test's directory.
type Repo struct {
	t      testing.TB
	Dir    string
	writes int // Write calls so far
	start  time.Time
}

// Init makes dir a git repository on branch main. It skips the test when
// git is not installed (.ci/run installs it, so CI runs these tests).
func Init(t testing.TB, dir string) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("git is not installed, so the git-based modes cannot be tested: %v", err)
	}
	r := &Repo{t: t, Dir: dir, start: time.Now().Truncate(time.Second)}
	r.Git("init", "-q")
	r.Git("symbolic-ref", "HEAD", "refs/heads/main") // whatever init.defaultBranch says
	return r
}

// Git runs git in the repository with Env and returns its standard
// output; it fails the test if git fails.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=ctrllint test", "-c", "user.email=test@example.com"}, args...)...)
	cmd.Dir = r.Dir
	cmd.Env = append(os.Environ(), Env...)
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return string(out)
}

// Write writes files (slash paths relative to the repository), dated in
// the past as testanalyzers.WriteModule does, so that ctrllint's result
// cache stores what it finds in them; each call a second later than the
// one before, so that git sees a rewrite of the same size as a change
// (the index trusts a file whose size and time are what it recorded).
func (r *Repo) Write(files map[string]string) {
	r.t.Helper()
	r.writes++
	then := r.start.Add(-10 * time.Minute).Add(time.Duration(r.writes) * time.Second)
	for name, content := range files {
		p := filepath.Join(r.Dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
		if err := os.Chtimes(p, then, then); err != nil {
			r.t.Fatal(err)
		}
	}
}

// Commit stages everything and commits it; it returns the commit's hash.
func (r *Repo) Commit(msg string) string {
	r.t.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
	return strings.TrimSpace(r.Git("rev-parse", "HEAD"))
}
