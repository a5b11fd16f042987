package newcode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// FromRev returns the changes in the working tree of the git repository
// containing dir since rev: what `git diff rev` shows (commits since rev,
// staged and unstaged changes) and the untracked files.
func FromRev(ctx context.Context, dir, rev string) (*Changes, error) {
	if err := checkRev(rev); err != nil {
		return nil, err
	}
	g, err := openRepo(ctx, dir)
	if err != nil {
		return nil, err
	}
	commit, err := g.commit(rev)
	if err != nil {
		return nil, err
	}
	return g.changesSince(commit)
}

// FromMergeBase returns the changes in the working tree of the git
// repository containing dir since the merge base of branch and HEAD.
func FromMergeBase(ctx context.Context, dir, branch string) (*Changes, error) {
	if err := checkRev(branch); err != nil {
		return nil, err
	}
	g, err := openRepo(ctx, dir)
	if err != nil {
		return nil, err
	}
	base, err := g.mergeBase(branch)
	if err != nil {
		return nil, err
	}
	return g.changesSince(base)
}

// commit resolves rev to the commit it names, so that the diff and the
// revision's tree (Checkout) are of the same commit even if a branch
// moves meanwhile.
func (g *repo) commit(rev string) (string, error) {
	out, err := g.run(g.top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("git rev-parse %s: no such commit%s", rev, g.shallowHint())
	}
	return strings.TrimSpace(string(out)), nil
}

// checkRev refuses what git would not take as one revision: an option (a
// "revision" -output=FILE would make git diff write a file) and a range,
// which would compare two commits instead of the working tree.
func checkRev(rev string) error {
	switch {
	case rev == "":
		return errors.New("empty revision")
	case strings.HasPrefix(rev, "-"):
		return fmt.Errorf("%q is not a revision", rev)
	case strings.Contains(rev, ".."):
		return fmt.Errorf("%q is a range; give one revision, which the working tree is compared with", rev)
	}
	return nil
}

// repo is a git repository's working tree.
type repo struct {
	ctx context.Context
	git string // the git executable
	top string // the top level, symlinks resolved
}

func openRepo(ctx context.Context, dir string) (*repo, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("git is needed to find the changed lines: %v", err)
	}
	g := &repo{ctx: ctx, git: git}
	out, err := g.run(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	top := filepath.FromSlash(strings.TrimRight(string(out), "\r\n"))
	if g.top, err = filepath.EvalSymlinks(top); err != nil {
		return nil, fmt.Errorf("the repository's top level: %v", err)
	}
	return g, nil
}

// changesSince diffs the working tree against rev.
func (g *repo) changesSince(rev string) (*Changes, error) {
	// git diff REV is git diff-index REV, which is the plumbing: it leaves
	// the index alone (the porcelain refreshes its stat cache and writes it
	// back, taking index.lock), and reads none of the diff.* settings that
	// change the output (prefixes, renames, external diff, relative
	// paths). It is run from the top level so that paths are relative to
	// it; renames are asked for; the prefixes and the rest are given in
	// case a future git reads more configuration. Context lines
	// (GIT_DIFF_OPTS) ParseDiff reads.
	out, err := g.run(g.top, "diff-index", "-p", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "-U0",
		"--src-prefix=a/", "--dst-prefix=b/", rev, "--")
	if err != nil {
		return nil, fmt.Errorf("%v%s", err, g.shallowHint())
	}
	diffs, err := ParseDiff(bytes.NewReader(out))
	if err != nil {
		return nil, fmt.Errorf("reading git diff-index %s: %v", rev, err)
	}
	out, err = g.run(g.top, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	var untracked []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" && !strings.HasSuffix(p, "/") { // a directory: an untracked nested repository
			untracked = append(untracked, p)
		}
	}
	c := newChanges(g.top, diffs, untracked)
	c.repo, c.rev = g, rev
	return c, nil
}

// mergeBase returns the best common ancestor of branch and HEAD.
func (g *repo) mergeBase(branch string) (string, error) {
	out, err := g.run(g.top, "merge-base", branch, "HEAD")
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 && len(out) == 0 {
		// git merge-base says nothing when there is no common ancestor.
		return "", fmt.Errorf("%s and HEAD have no common ancestor (git merge-base %s HEAD found none)%s", branch, branch, g.shallowHint())
	}
	if err != nil {
		return "", fmt.Errorf("%v%s", err, g.shallowHint())
	}
	return strings.TrimSpace(string(out)), nil
}

// shallowHint explains a revision missing from a shallow clone, the usual
// cause in CI, where checkouts fetch one commit by default.
func (g *repo) shallowHint() string {
	if g.top == "" {
		return ""
	}
	out, err := g.run(g.top, "rev-parse", "--is-shallow-repository")
	if err != nil || strings.TrimSpace(string(out)) != "true" {
		return ""
	}
	return "\n\tthis is a shallow clone, whose history may not reach that far: fetch the history first " +
		"(git fetch --unshallow, or actions/checkout with fetch-depth: 0)"
}

// gitError is a git command that failed, with what git said.
type gitError struct {
	args   []string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		msg = e.err.Error()
	}
	return "git " + strings.Join(e.args, " ") + ": " + msg
}

func (e *gitError) Unwrap() error { return e.err }

// run runs git in dir and returns its standard output; its error is a
// *gitError.
func (g *repo) run(dir string, args ...string) ([]byte, error) {
	return g.runEnv(dir, nil, args...)
}

// runEnv is run with more environment variables.
func (g *repo) runEnv(dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(g.ctx, g.git, args...)
	cmd.Dir = dir
	// No command here should take a lock, but a linter must not block
	// the user's git commands if one does.
	cmd.Env = append(append(os.Environ(), "GIT_OPTIONAL_LOCKS=0"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), &gitError{args: shortArgs(args), stderr: stderr.String(), err: err}
	}
	return stdout.Bytes(), nil
}

// shortArgs leaves out of messages the options that only pin git
// diff-index's format.
func shortArgs(args []string) []string {
	var out []string
	for _, a := range args {
		if args[0] == "diff-index" && strings.HasPrefix(a, "-") {
			continue
		}
		out = append(out, a)
	}
	return out
}
