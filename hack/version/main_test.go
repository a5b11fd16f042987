package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionIsGos: in git repositories made here, version prints what the
// go command stamps into a binary built there (its build info's
// Main.Version), through untagged, tagged, descendant, prerelease and
// dirty states; and in a git worktree, where the go command stamps
// nothing, version still names the commit.
func TestVersionIsGos(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	bin := filepath.Join(t.TempDir(), "v")
	run := func(dir string, env []string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	gitEnv := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
	git := func(dir string, args ...string) string { return run(dir, gitEnv, "git", args...) }
	commit := func(date string) {
		git(repo, "add", "-A")
		run(repo, append(gitEnv, "GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date), "git", "commit", "-q", "-m", date)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// goVersion builds the module in dir as a user's go build does (VCS
	// stamping on, whatever GOFLAGS says here) and returns its version.
	goVersion := func(dir string) string {
		run(dir, []string{"GOFLAGS=-buildvcs=auto", "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local"}, "go", "build", "-o", bin, ".")
		return run(dir, nil, bin)
	}
	ours := func(dir string) string {
		t.Helper()
		v, err := version(dir)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	same := func(state, want string) {
		t.Helper()
		got, gos := ours(repo), goVersion(repo)
		if got != gos {
			t.Errorf("%s: version = %q, the go command stamps %q", state, got, gos)
		}
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s: version = %q, want %s...", state, got, want)
		}
	}

	git(repo, "init", "-q")
	write("go.mod", "module example.com/v\n\ngo 1.24\n")
	write("main.go", "package main\n\nimport (\n\t\"fmt\"\n\t\"runtime/debug\"\n)\n\nfunc main() {\n\tbi, _ := debug.ReadBuildInfo()\n\tfmt.Println(bi.Main.Version)\n}\n")
	commit("2026-01-02T03:04:05Z")
	same("untagged", "v0.0.0-20260102030405-")
	write("extra.txt", "x\n")
	same("untracked file", "v0.0.0-20260102030405-")
	if !strings.HasSuffix(ours(repo), "+dirty") {
		t.Errorf("untracked file: %q is not +dirty", ours(repo))
	}
	commit("2026-01-03T00:00:00Z")
	git(repo, "tag", "v0.1.0")
	git(repo, "tag", "v2.0.0") // not a version of a module without /v2
	git(repo, "tag", "release-1")
	same("tagged", "v0.1.0")
	write("extra.txt", "y\n")
	same("tagged, changed", "v0.1.0+dirty")
	commit("2026-01-04T00:00:00Z")
	same("after a tag", "v0.1.1-0.20260104000000-")
	git(repo, "tag", "v0.2.0-rc.1")
	write("extra.txt", "z\n")
	commit("2026-01-05T00:00:00Z")
	same("after a prerelease", "v0.2.0-rc.1.0.20260105000000-")

	// A worktree of the same commit: the go command stamps nothing there.
	wt := filepath.Join(t.TempDir(), "wt")
	git(repo, "worktree", "add", "-q", wt, "HEAD")
	if gos := goVersion(wt); gos != "(devel)" {
		t.Logf("the go command now stamps %q in a worktree: make build's -X can go", gos)
	}
	if got, want := ours(wt), ours(repo); got != want {
		t.Errorf("worktree: version = %q, want the checkout's %q", got, want)
	}

	if _, err := version(t.TempDir()); err == nil {
		t.Error("version outside a git checkout: no error")
	}
}
