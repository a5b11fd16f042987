package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/lsp"
)

const lspUsage = `usage: ctrllint lsp [-enable a,b] [-disable a,b] [-tags t1,t2] [-test=false]

Runs ctrllint's language server on standard input and output, for editors
to start beside gopls: it publishes ctrllint's findings as diagnostics for
the package of each file opened or saved, and offers the suggested fixes as
quick fixes. See docs/editors.md.

Flags:
`

// isLSPInvocation reports whether the command line asks for the language
// server.
func isLSPInvocation(args []string) bool {
	return len(args) > 0 && args[0] == "lsp"
}

// runLSP serves the language server on stdin and stdout until the client
// says exit, and returns the exit status the protocol prescribes (0 after
// a shutdown request, 1 otherwise), or 2 for a bad command line.
func runLSP(ctx context.Context, args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer, s suite) int {
	fs := flag.NewFlagSet("ctrllint lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, lspUsage)
		fs.PrintDefaults()
	}
	enable := fs.String("enable", "", "run only these comma-separated analyzers")
	disable := fs.String("disable", "", "do not run these comma-separated analyzers")
	tags := fs.String("tags", "", "comma-separated build tags, as for go build")
	tests := fs.Bool("test", true, "analyse _test.go files too (as go vet does)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitClean
		}
		return exitError
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ctrllint lsp: unexpected arguments %q (the editor says which files to analyse)\n", fs.Args())
		return exitError
	}
	enabled, err := selectAnalyzers(s.analyzers, *enable, *disable)
	if err != nil {
		fmt.Fprintf(stderr, "ctrllint lsp: %v\n", err)
		return exitError
	}
	return lsp.Serve(ctx, stdio{stdin, stdout}, lspOptions(s, enabled, splitTags(*tags), *tests, stderr))
}

// lspOptions configure the editor server as the command configures the
// driver: the same analyzers, documentation and whole packages.
func lspOptions(s suite, enabled []*analysis.Analyzer, tags []string, tests bool, log io.Writer) lsp.Options {
	urls := make(map[string]string)
	for _, a := range enabled {
		urls[a.Name] = s.info(a).URL
	}
	return lsp.Options{
		Analyzers: enabled,
		DocURL:    func(name string) string { return urls[name] },
		// Their scopes must not depend on what else was decoded.
		WholePackages: analyzers.WholePackages(),
		Tags:          tags,
		Tests:         tests,
		Version:       toolVersion(),
		Log:           log,
	}
}

// stdio is the server's end of the connection: the editor writes to our
// standard input and reads our standard output.
type stdio struct {
	io.ReadCloser
	out io.WriteCloser
}

func (c stdio) Write(p []byte) (int, error) { return c.out.Write(p) }

func (c stdio) Close() error {
	return errors.Join(c.ReadCloser.Close(), c.out.Close())
}
