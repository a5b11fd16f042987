package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
)

// options are the parsed command line of a standalone run.
type options struct {
	format string
	fix    bool
	// fixOutside lets -fix write through a symbolic link to a file
	// outside the link's module.
	fixOutside bool
	explain    string
	list       bool
	enable     string
	disable    string
	tags       string
	tests      bool
	cache      bool
	dir        string
	version    bool
	cpuprof    string
	memprof    string
	newCode    newCodeOptions
	verbose    bool
	patterns   []string
	// The configuration file (config.go): -config, and the flags given
	// on the command line, which win over the file's settings.
	config string
	set    map[string]bool

	baseline      string // -baseline FILE (baseline.go)
	baselineWrite string // -baseline-write FILE
}

// errUsage means the command line was wrong and the message has been
// printed; the exit status is 2.
var errUsage = errors.New("usage error")

// parseFlags parses args. It returns flag.ErrHelp for -h, errUsage after
// printing the reason for bad flags.
func parseFlags(args []string, stderr io.Writer, all []*analysis.Analyzer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("ctrllint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText())
		fs.PrintDefaults()
	}
	fs.StringVar(&o.format, "f", "text", "output format: "+formatList())
	fs.BoolVar(&o.fix, "fix", false, "apply suggested fixes; report only findings left unfixed")
	fs.BoolVar(&o.fixOutside, "fix-outside-module", false, "with -fix, also write files that a symbolic link in the module points to outside it")
	fs.StringVar(&o.explain, "explain", "", "print the documentation of analyzer `NAME` and exit")
	fs.BoolVar(&o.list, "list", false, "list the analyzers, whether each is enabled, and exit")
	fs.StringVar(&o.enable, "enable", "", "run only these comma-separated analyzers")
	fs.StringVar(&o.disable, "disable", "", "do not run these comma-separated analyzers")
	fs.StringVar(&o.tags, "tags", "", "comma-separated build tags, as for go build")
	fs.BoolVar(&o.tests, "test", true, "analyse _test.go files too (as go vet does)")
	fs.StringVar(&o.dir, "C", "", "change to `dir` before doing anything (as go -C)")
	fs.BoolVar(&o.cache, "cache", true, "reuse results of unchanged packages (kept in $CTRLLINT_CACHE, default the user cache dir's ctrllint/)")
	fs.StringVar(&o.cpuprof, "cpuprofile", "", "write a CPU profile of the run to `file` (go tool pprof)")
	fs.StringVar(&o.memprof, "memprofile", "", "write a heap profile at the end of the run to `file`")
	fs.StringVar(&o.config, "config", "", "read settings from `file` (default: the first .ctrllint.yml or .ctrllint.yaml in the working directory or above it; \"none\": none)")
	fs.BoolVar(&o.verbose, "v", false, "print on stderr which configuration file the run read, the analysis limits reached in the packages analysed (kept with their results in the cache) and, at the end, how long each phase of the run took")
	fs.StringVar(&o.baseline, "baseline", "", "report only findings not recorded in the baseline `file` (docs/baseline.md)")
	fs.StringVar(&o.baselineWrite, "baseline-write", "", "record the run's findings in the baseline `file` and exit 0 (docs/baseline.md)")
	fs.BoolVar(&o.version, "V", false, "print the version and exit")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	o.newCode.register(fs)
	// Each analyzer's own flags, as -NAME.FLAG: the spelling go vet's
	// unitchecker uses, so one command line works in both modes.
	for _, a := range all {
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errUsage // flag has printed the error and usage
	}
	o.set = make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	if !slices.Contains(formats, o.format) {
		fmt.Fprintf(stderr, "ctrllint: unknown output format -f %q (want %s)\n", o.format, formatList())
		return nil, errUsage
	}
	if o.fixOutside && !o.fix {
		fmt.Fprintln(stderr, "ctrllint: -fix-outside-module needs -fix")
		return nil, errUsage
	}
	if !o.newCode.check(fs, stderr) {
		return nil, errUsage
	}
	if err := checkBaselineFlags(fs, o, stderr); err != nil {
		return nil, err
	}
	o.patterns = fs.Args()
	return o, nil
}

// selectAnalyzers applies -enable and -disable, comma-separated lists, to
// all by the rule every front end shares (analyzers.Select).
func selectAnalyzers(all []*analysis.Analyzer, enable, disable string) ([]*analysis.Analyzer, error) {
	return analyzers.SelectFrom(all, splitNames(enable), splitNames(disable))
}

// splitNames splits a comma-separated list of analyzer names.
func splitNames(list string) []string {
	var names []string
	for n := range strings.SplitSeq(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}

func knownNames(all []*analysis.Analyzer) string {
	names := make([]string, len(all))
	for i, a := range all {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// splitTags accepts the go command's comma-separated form and the older
// space-separated one.
func splitTags(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}
