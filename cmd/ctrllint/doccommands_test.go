package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/internal/newcode/gittest"
)

// docCommand is a ctrllint command a page shows in a code block.
type docCommand struct {
	page, line string
	exit       int // the exit status its comment promises; -1: 0 or 1
}

// shownCommand matches a code block's line that runs ctrllint: indented
// four spaces, or a workflow's `run:` step.
var shownCommand = regexp.MustCompile(`^(?:    |\s*- run: )(ctrllint .*)$`)

// promisedExit is a comment's promise of an exit status: "# exits 0: ...".
var promisedExit = regexp.MustCompile(`#\s*exits (\d)`)

// docCommands returns the ctrllint commands of page that run offline on a
// repository: not synopses ([-flag]), not the editor servers, which wait
// for a client on stdin (their own tests run them).
func docCommands(t *testing.T, page string) []docCommand {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", page))
	if err != nil {
		t.Fatal(err)
	}
	var out []docCommand
	for l := range strings.Lines(string(data)) {
		m := shownCommand.FindStringSubmatch(strings.TrimRight(l, "\n"))
		if m == nil {
			continue
		}
		cmd := m[1]
		if strings.Contains(cmd, " [-") || strings.HasPrefix(cmd, "ctrllint lsp") || strings.HasPrefix(cmd, "ctrllint gopls") {
			continue
		}
		c := docCommand{page: page, line: cmd, exit: -1}
		if e := promisedExit.FindStringSubmatch(cmd); e != nil {
			c.exit, _ = strconv.Atoi(e[1])
		}
		if i := strings.Index(cmd, "   #"); i >= 0 {
			c.line = strings.TrimSpace(cmd[:i])
		}
		out = append(out, c)
	}
	return out
}

// TestDocCommandsRun runs every ctrllint command docs/ci.md and
// docs/editors.md show, as written (through sh, redirections and all, a
// workflow's expression given a value), in order, in a git repository
// holding the bundled example: each must do what the page says it does,
// exit 0 or 1 (findings) unless its comment promises a status, never 2 (a
// flag or form the command refuses).
func TestDocCommandsRun(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	gittest.Isolate(t)
	src := exampleModule(t)
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		copyFile(t, filepath.Join(src, name), filepath.Join(dir, name))
	}
	copyPackageTree(t, src, dir, exampleDir)
	r := gittest.Init(t, dir)
	r.Commit("example")
	// A pull request's job compares with the base branch as fetched.
	r.Git("update-ref", "refs/remotes/origin/main", "HEAD")
	r.Write(map[string]string{exampleDir + "/changed.go": "package example\n"})

	var cmds []docCommand
	for _, page := range []string{"docs/ci.md", "docs/editors.md"} {
		cmds = append(cmds, docCommands(t, page)...)
	}
	if len(cmds) < 5 {
		t.Fatalf("%d commands found in the pages: the pattern no longer finds them", len(cmds))
	}
	path := filepath.Dir(ctrllintBin) + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, c := range cmds {
		line := strings.ReplaceAll(c.line, "${{ github.base_ref }}", "main")
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+path, "GOPROXY=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.exit >= 0 && code != c.exit:
			t.Errorf("%s: `%s` exited %d, the page says %d\n%s", c.page, c.line, code, c.exit, out)
		case c.exit < 0 && code != 0 && code != 1:
			t.Errorf("%s: `%s` exited %d\n%s", c.page, c.line, code, out)
		}
	}
}
