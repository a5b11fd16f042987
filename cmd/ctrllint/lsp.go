package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/config"
	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/lsp"
)

const lspUsage = `usage: ctrllint lsp [-config file] [-enable a,b] [-disable a,b] [-tags t1,t2] [-test=false]

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
	ef := addEngineFlags(fs)
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
	opts, ok := ef.options("ctrllint lsp", s, stderr)
	if !ok {
		return exitError
	}
	return lsp.Serve(ctx, stdio{stdin, stdout}, opts)
}

// engineFlags are the flags of ctrllint's analysis in the editor, which
// ctrllint lsp and ctrllint gopls share.
type engineFlags struct {
	enable, disable, tags, config *string
	tests                         *bool
}

func addEngineFlags(fs *flag.FlagSet) *engineFlags {
	return &engineFlags{
		enable:  fs.String("enable", "", "run only these comma-separated analyzers"),
		disable: fs.String("disable", "", "do not run these comma-separated analyzers"),
		tags:    fs.String("tags", "", "comma-separated build tags, as for go build"),
		tests:   fs.Bool("test", true, "analyse _test.go files too (as go vet does)"),
		config:  fs.String("config", "", "read settings from `file` (default: each package's, the first .ctrllint.yml or .ctrllint.yaml in its directory or above it; \"none\": none)"),
	}
}

// options are the engine's options the flags give, or false after saying
// on stderr what is wrong with them.
func (ef *engineFlags) options(prog string, s suite, stderr io.Writer) (lsp.Options, bool) {
	enabled, err := selectAnalyzers(s.analyzers, *ef.enable, *ef.disable)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return lsp.Options{}, false
	}
	o := &options{enable: *ef.enable, disable: *ef.disable, config: *ef.config, set: map[string]bool{}}
	if o.config != "" && o.config != configNone {
		// Relative to where the editor started the server, not to each
		// package's directory.
		if o.config, err = filepath.Abs(o.config); err != nil {
			fmt.Fprintf(stderr, "%s: -config: %v\n", prog, err)
			return lsp.Options{}, false
		}
		if _, err := config.Load(o.config, o.config, s.analyzers); err != nil {
			printConfigError(stderr, fmt.Errorf("-config: %w", err))
			return lsp.Options{}, false
		}
	}
	opts := lspOptions(s, enabled, splitTags(*ef.tags), *ef.tests, stderr)
	opts.Settings = (&lspSettings{o: o, all: s.analyzers}).settings
	return opts, true
}

// lspSettings gives each package the settings a command run in its
// directory would have: its configuration file (found from there, or
// -config) with the server's -enable and -disable over it.
type lspSettings struct {
	o   *options
	all []*analysis.Analyzer

	mu sync.Mutex
	// Analyzer options are flags of the process's analyzers, not of a
	// package: they are set once, from the first package's file, before
	// any analysis (every analysis asks for its settings first, under mu),
	// and a later file that sets others is an error rather than a change
	// under analyses in flight.
	configured  bool
	options     map[string]map[string]string
	optionsFrom string
}

func (l *lspSettings) settings(dir string) (lsp.Settings, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := configFile(l.o, dir, l.all)
	if err != nil {
		return lsp.Settings{}, err
	}
	var opts map[string]map[string]string
	from := "no configuration file"
	if f != nil {
		opts, from = f.Options, f.Path
	}
	switch {
	case !l.configured:
		if err := configureOptions(l.o, f, l.all); err != nil {
			return lsp.Settings{}, err
		}
		l.configured, l.options, l.optionsFrom = true, opts, from
	case !maps.EqualFunc(l.options, opts, maps.Equal):
		return lsp.Settings{}, fmt.Errorf("%s gives the analyzers other options than %s, which this server already uses: analyzer options are the server's, so start one ctrllint lsp per repository", from, l.optionsFrom)
	}
	enabled, err := selection(l.o, f, dir, l.all)
	if err != nil {
		return lsp.Settings{}, err
	}
	return lsp.Settings{
		Analyzers: enabled,
		Keep:      func(fd finding.Finding) bool { return len(excludeConfigured(f, []finding.Finding{fd})) == 1 },
		Severity:  severities(f),
	}, nil
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
		ExportDir:     exportDir(cacheDir(true)),
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
