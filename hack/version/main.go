// Command version prints the version the go command stamps into a binary
// built in this git checkout, in the same form: the highest semantic
// version tag at HEAD, or else a pseudo-version after the highest tag HEAD
// descends from (v0.0.0-... without one) that names the commit, and +dirty
// when the tree has uncommitted changes or untracked files.
//
// make build stamps it with -ldflags -X main.version where the go command
// cannot read git itself: in a git worktree or a submodule .git is a file,
// and the go command takes only a .git directory for a repository
// (cmd/go/internal/vcs), so its binary says (devel). It exits 1 with the
// reason outside a git checkout, and make build then stamps nothing.
//
//	go run ./hack/version [dir]
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	v, err := version(dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "version: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(v)
}

// version is the go command's version for the module at the root of the git
// checkout dir (cmd/go/internal/modfetch's codeRepo.convert, for a module
// path without a major version suffix and without retractions).
func version(dir string) (string, error) {
	git := func(args ...string) (string, error) {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(ee.Stderr)))
			}
			return "", fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	status, err := git("status", "--porcelain")
	if err != nil {
		return "", err
	}
	head, err := git("-c", "log.showsignature=false", "log", "-1", "--format=%H:%ct")
	if err != nil {
		return "", err
	}
	rev, secs, ok := strings.Cut(head, ":")
	t, err := strconv.ParseInt(secs, 10, 64)
	if !ok || err != nil || len(rev) < 12 {
		return "", fmt.Errorf("git log: unexpected output %q", head)
	}
	dirty := ""
	if status != "" {
		dirty = "+dirty"
	}

	atHead, err := git("tag", "--points-at", "HEAD")
	if err != nil {
		return "", err
	}
	if v := highest(strings.Fields(atHead), true); v != "" {
		return v + dirty, nil
	}
	refs, err := git("for-each-ref", "--format=%(refname)", "--merged=HEAD", "refs/tags/")
	if err != nil {
		return "", err
	}
	var tags []string
	for _, r := range strings.Fields(refs) {
		tags = append(tags, strings.TrimPrefix(r, "refs/tags/"))
	}
	return module.PseudoVersion("", highest(tags, false), time.Unix(t, 0), rev[:12]) + dirty, nil
}

// highest is the highest version among tags that the go command takes for
// a module whose path has no major version suffix: semantic versions of
// major version 0 or 1 that do not look like pseudo-versions, canonical
// ones (v1.2.3, v1.2.3-rc.1) for a tag that names the version itself, or,
// for the base of a pseudo-version, with build metadata too (v1.2.3+meta
// counts as v1.2.3).
func highest(tags []string, canonical bool) string {
	best := ""
	for _, tag := range tags {
		v := semver.Canonical(tag)
		if v == "" || !strings.HasPrefix(tag, v) || canonical && v != tag || module.IsPseudoVersion(tag) {
			continue
		}
		if m := semver.Major(v); m != "v0" && m != "v1" {
			continue
		}
		if semver.Compare(v, best) > 0 {
			best = v
		}
	}
	return best
}
