package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ctrllint/ctrllint/internal/goplsproxy"
	"github.com/ctrllint/ctrllint/internal/lsp"
)

const goplsUsage = `usage: ctrllint gopls [-gopls path] [-config file] [-enable a,b] [-disable a,b] [-tags t1,t2] [-test=false] [-- gopls arguments]

Runs gopls with ctrllint's findings merged into its diagnostics and quick
fixes: the editor starts it in place of gopls (see docs/editors.md). It
starts the real gopls with the arguments after --, passes every message
through unchanged but gopls's diagnostics and code actions, which get
ctrllint's, and exits when gopls does: 0 after the editor's shutdown and
exit, 1 if gopls ended by itself (the editor is told, and restarts it).

Which gopls: -gopls path, else the first gopls in GOBIN, in each GOPATH
entry's bin, in GOROOT/bin, then on PATH (the Go extension's order, with
GOBIN, GOPATH and GOROOT as go env gives them), else the newest one that
make gopls built in a clone of ctrllint: $CTRLLINT_CACHE/gopls-<version>/,
~/.cache/ctrllint/gopls-<version>/ when CTRLLINT_CACHE is not set. The
running ctrllint itself is skipped.

A gopls command that is no server (gopls version, gopls check ...) runs
as it is: editors run "gopls version" with the program they start.

Installed under the name ctrllint-gopls (a link to ctrllint), it takes no
flags of its own: every argument is gopls's (VS Code's go.alternateTools
names a program, not a command line).

Flags:
`

// goplsProxyName is the name under which ctrllint is the gopls proxy with
// every argument gopls's.
const goplsProxyName = "ctrllint-gopls"

// isGoplsInvocation reports whether the command line asks for the gopls
// proxy.
func isGoplsInvocation(args []string) bool {
	return len(args) > 0 && args[0] == "gopls"
}

// proxyArgs is the command line of a ctrllint run as argv0: the proxy's,
// with every argument gopls's, when it is named ctrllint-gopls.
func proxyArgs(argv0 string, args []string) []string {
	name := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	if name != goplsProxyName {
		return args
	}
	return append([]string{"gopls", "--"}, args...)
}

// runGopls runs the gopls proxy on stdin and stdout; its exit status is
// goplsproxy.Run's, or 2 for a bad command line or no gopls.
func runGopls(ctx context.Context, args []string, stdin io.ReadCloser, stdout io.Writer, stderr io.Writer, s suite) int {
	fs := flag.NewFlagSet("ctrllint gopls", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, goplsUsage)
		fs.PrintDefaults()
	}
	gopls := fs.String("gopls", "", "start the gopls at `path` (default: the first in GOBIN, GOPATH/bin, GOROOT/bin, PATH, then make gopls's builds: see above)")
	ef := addEngineFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitClean
		}
		return exitError
	}
	if os.Getenv(goplsproxy.GuardEnv) != "" {
		fmt.Fprintf(stderr, "ctrllint gopls: started by ctrllint gopls: the gopls it found is ctrllint; name the real one with -gopls\n")
		return exitError
	}
	opts, ok := ef.options("ctrllint gopls", s, stderr)
	if !ok {
		return exitError
	}
	path := *gopls
	if path == "" {
		self, _ := os.Executable()
		var err error
		if path, err = goplsproxy.Find(self, goplsBuilds()); err != nil {
			fmt.Fprintf(stderr, "ctrllint gopls: %v\n", err)
			return exitError
		}
	} else if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		if err == nil {
			err = errors.New("is a directory")
		}
		fmt.Fprintf(stderr, "ctrllint gopls: -gopls: %v\n", err)
		return exitError
	}
	if !goplsproxy.Serves(fs.Args()) {
		return runGoplsAsIs(ctx, path, fs.Args(), stdin, stdout, stderr)
	}
	return goplsproxy.Run(ctx, stdin, stdout, goplsproxy.Options{
		Gopls:  path,
		Args:   fs.Args(),
		Stderr: stderr,
		Analyzer: func(ctx context.Context, c lsp.Client) goplsproxy.Analyzer {
			return lsp.NewEngine(ctx, opts, c)
		},
	})
}

// goplsBuilds is the directory into which make gopls (hack/gopls/build.sh)
// builds gopls: the script's rule, ${CTRLLINT_CACHE:-$HOME/.cache/ctrllint},
// rather than cacheDir's, which follows XDG_CACHE_HOME and the platform's
// cache directory where the script does not. "" for a relative
// CTRLLINT_CACHE (relative to where make ran, which the editor does not
// know; "off" included) or no home.
func goplsBuilds() string {
	if d := os.Getenv("CTRLLINT_CACHE"); d != "" {
		if !filepath.IsAbs(d) {
			return ""
		}
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "ctrllint")
}

// runGoplsAsIs runs a gopls command that is no server (gopls version,
// which editors run with the program they were given for gopls) with the
// proxy's input and output, and returns its exit status.
func runGoplsAsIs(ctx context.Context, path string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitClean
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	default:
		fmt.Fprintf(stderr, "ctrllint gopls: %v\n", err)
		return exitError
	}
}
