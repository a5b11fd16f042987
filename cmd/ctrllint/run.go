package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// Exit statuses.
const (
	exitClean    = 0
	exitFindings = 1
	exitError    = 2
)

// suite is the set of analyzers and their documentation. It is a
// parameter so tests can run the whole command with analyzers that are
// known to fire.
type suite struct {
	analyzers []*analysis.Analyzer
	lookup    func(name string) (analyzers.Info, bool)
	// summaryImports are driver.Config's SummaryImports (nil: every
	// package of the module a root imports gives its facts).
	summaryImports []string
}

func defaultSuite() suite {
	return suite{analyzers.All(), analyzers.Lookup, analyzers.SummaryImports()}
}

// info is s.lookup with a fallback to the analyzer itself, so that an
// analyzer without a documentation page still gets a usable rule.
func (s suite) info(a *analysis.Analyzer) analyzers.Info {
	if in, ok := s.lookup(a.Name); ok {
		return withRuleName(in)
	}
	summary, _, _ := strings.Cut(a.Doc, "\n")
	return withRuleName(analyzers.Info{Name: a.Name, Summary: summary, URL: a.URL, Text: a.Doc})
}

// withRuleName gives in a rule name when its analyzer's definition gave
// none (an analyzer from outside the suite): the words of its summary,
// which say what it reports, in PascalCase ("report calls to bad":
// ReportCallsToBad).
func withRuleName(in analyzers.Info) analyzers.Info {
	if in.RuleName != "" {
		return in
	}
	summary := strings.TrimPrefix(in.Summary, in.Name+": ")
	for _, w := range strings.FieldsFunc(summary, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		r, size := utf8.DecodeRuneInString(w)
		in.RuleName += string(unicode.ToUpper(r)) + w[size:]
	}
	if in.RuleName == "" || strings.EqualFold(in.RuleName, in.Name) || !unicode.IsUpper([]rune(in.RuleName)[0]) {
		r, size := utf8.DecodeRuneInString(in.Name)
		in.RuleName = string(unicode.ToUpper(r)) + in.Name[size:] + "Finding"
	}
	return in
}

// version, when set (-ldflags "-X main.version=..."), is the version -V
// prints instead of the build info's: make build sets it where go cannot
// read git (version.go).
var version = ""

func toolVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return formatVersion(version, bi)
}

// toolSemanticVersion is toolVersion as SemVer 2.0 (semanticVersion).
func toolSemanticVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return semanticVersion(version, bi)
}

// exportDir is where dependencies type-checked from source keep their
// export data: beside the results, and off with them.
func exportDir(cacheDir string) string {
	if cacheDir == "" {
		return ""
	}
	return filepath.Join(cacheDir, "exports")
}

// revisionDir is where -new-from-rev keeps the revisions' trees it
// analyses, beside the results they are cached in; "" for none.
func revisionDir(cacheDir string) string {
	if cacheDir == "" {
		return ""
	}
	return filepath.Join(cacheDir, "revisions")
}

// cacheDir is where results are cached, "" for none: $CTRLLINT_CACHE
// ("off" turns the cache off), or ctrllint/ in the user cache directory.
func cacheDir(enabled bool) string {
	if !enabled {
		return ""
	}
	switch d := os.Getenv("CTRLLINT_CACHE"); d {
	case "off":
		return ""
	case "":
	default:
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "" // no home: run without a cache
	}
	return filepath.Join(d, "ctrllint")
}

// run is the standalone command; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, s suite) int {
	o, err := parseFlags(args, stderr, s.analyzers)
	if errors.Is(err, flag.ErrHelp) {
		return exitClean
	}
	if err != nil {
		return exitError
	}
	if o.version {
		fmt.Fprintf(stdout, "ctrllint version %s %s\n", toolVersion(), runtime.Version())
		return exitClean
	}
	stopProfiles, err := startProfiles(o)
	if err != nil {
		fmt.Fprintf(stderr, "ctrllint: %v\n", err)
		return exitError
	}
	defer stopProfiles()
	if o.explain != "" {
		return explain(o.explain, stdout, stderr, s)
	}
	cfg, enabled, err := configure(o, s.analyzers)
	if err != nil {
		printConfigError(stderr, err)
		return exitError
	}
	if o.list {
		listConfig(stderr, cfg, o)
		list(stdout, s, enabled)
		return exitClean
	}
	if len(o.patterns) == 0 {
		fmt.Fprintln(stderr, "ctrllint: no packages given (to analyse the module in the current directory, use ./...)")
		return exitError
	}

	wd, err := workDir(o.dir)
	if err != nil {
		fmt.Fprintf(stderr, "ctrllint: %v\n", err)
		return exitError
	}
	newCode, err := o.newCode.start(ctx, wd)
	if err != nil {
		fmt.Fprintf(stderr, "ctrllint: %v\n", err)
		return exitError
	}
	if o.verbose {
		listConfig(stderr, cfg, o) // which settings this run has
	}
	prog := startProgress(ctx, stderr, o.verbose, len(enabled))
	defer prog.end(ctx)
	stderr = prog.writer() // erases the status line before each message
	bl, err := openBaseline(o, wd)
	if err != nil {
		fmt.Fprintf(stderr, "ctrllint: %v\n", err)
		return exitError
	}
	analysis := func(dir string) *driver.Config {
		return &driver.Config{
			Dir:       dir,
			Patterns:  o.patterns,
			Tags:      splitTags(o.tags),
			Tests:     o.tests,
			Analyzers: enabled,
			CacheDir:  cacheDir(o.cache),
			ExportDir: exportDir(cacheDir(o.cache)),
			// The first run's path on a machine that built nothing, for
			// tests comparing it with the usual one (hack/corpus -from-source).
			FromSource: os.Getenv("CTRLLINT_FROM_SOURCE") == "1",
			// Their scopes must not depend on what else was decoded.
			WholePackages:  analyzers.WholePackages(),
			SummaryImports: s.summaryImports,
			Phases:         gcPhases(),
		}
	}
	cfgNow := analysis(wd)
	cfgNow.Progress = prog.hook()
	res, err := driver.Analyze(ctx, cfgNow)
	var keepNew func([]finding.Finding) []finding.Finding
	if err == nil || errors.As(err, new(*driver.LoadError)) {
		// The revision's findings, for what the working tree's are
		// compared with; after the working tree's run, whose problems
		// matter first.
		keepNew = newCode.keeper(wd, revisionDir(cacheDir(o.cache)), func(dir string) (*driver.Result, error) {
			return driver.Analyze(ctx, analysis(dir))
		}, stderr)
	}
	if st, ok := signalStatus(ctx); ok {
		// Whatever Analyze returned is incomplete: nothing is printed or
		// fixed. It has returned, so the go command it ran has exited.
		fmt.Fprintf(stderr, "ctrllint: %v\n", context.Cause(ctx))
		return st
	}
	var loadErr *driver.LoadError
	if err != nil && !errors.As(err, &loadErr) {
		fmt.Fprintf(stderr, "ctrllint: %v\n", err)
		return exitError
	}
	if res == nil {
		res = &driver.Result{}
	}
	rel := relativizer(wd)

	// Exclusions first: an excluded finding is no finding, in a baseline
	// or out of it; and before -fix: an excluded finding is not fixed.
	findings, err := bl.split(excludeConfigured(cfg, res.Findings), keepNew)
	if err != nil {
		fmt.Fprintf(stderr, "ctrllint: %v\n", err)
		return exitError
	}
	if o.fix {
		prog.fixes()
		var plan *finding.FixPlan
		findings, plan, err = applyFixes(findings, res.Analysed, o.fixOutside, stderr, rel)
		prog.fixed()
		if plan != nil {
			bl.relocate(plan)
		}
		if err != nil {
			fmt.Fprintf(stderr, "ctrllint: %v\n", err)
			return exitError
		}
	}
	prog.stop() // what is left goes to stdout too, the same terminal

	// Problems first on stderr, so a reader sees why findings may be
	// incomplete before the findings themselves.
	problems := collectProblems(loadErr, res.Errors, rel)
	var problemLines []string
	for _, p := range problems {
		problemLines = append(problemLines, p.text)
		if os.Getenv("CTRLLINT_DEBUG") != "" && p.stack != "" {
			problemLines = append(problemLines, p.stack)
		}
	}
	for _, p := range problemLines {
		fmt.Fprintf(stderr, "ctrllint: %s\n", p)
	}
	if o.verbose {
		// Where a bound of an analysis, not the code, decided: a
		// finding there may be one the analyzer could not disprove.
		for _, l := range res.Limits {
			fmt.Fprintf(stderr, "ctrllint: %s: analysis limit reached in package %s at %s:%d: %s\n", l.Analyzer, l.Package, rel(l.Pos.Filename), l.Pos.Line, l.What)
		}
	}
	if bl != nil && bl.write {
		return bl.writeBaseline(findings, problemLines, stderr)
	}
	goneNote := bl.goneNote(enabled, o.tests, problemLines)
	if goneNote != "" {
		fmt.Fprintf(stderr, "ctrllint: %s\n", goneNote)
	}

	werr := writeReport(stdout, o.format, report{
		findings: findings, problems: problems, problemLines: problemLines, goneNote: goneNote,
		rel: rel, severity: severities(cfg), baseline: bl, suite: s, enabled: enabled, wd: wd,
	})
	if werr != nil {
		fmt.Fprintf(stderr, "ctrllint: %v\n", werr)
		return exitError
	}

	switch {
	case len(problems) > 0:
		return exitError
	case len(findings) > 0:
		return exitFindings
	}
	return exitClean
}

// applyFixes writes the fixes and returns the findings left to report:
// those without a fix, or whose fix was skipped, at their places in the
// files as written; and the plan written. analysed gives each
// file's content as analysed (driver.Result.Analysed): a file saved since
// is not written, nor is any other. Unless outside, a symbolic link to a
// file outside its module is not written through.
func applyFixes(findings []finding.Finding, analysed func(string) (finding.Digest, bool), outside bool, stderr io.Writer, rel func(string) string) ([]finding.Finding, *finding.FixPlan, error) {
	plan := finding.PlanFixes(findings, finding.PlanOptions{Analysed: analysed, InModule: !outside})
	if len(plan.Stale) > 0 {
		names := make([]string, len(plan.Stale))
		for i, f := range plan.Stale {
			names[i] = rel(f)
		}
		return nil, nil, fmt.Errorf("-fix: %s changed since it was analysed: its findings and fixes are of the old content; nothing was written, run again", strings.Join(names, ", "))
	}
	linked := false
	for _, s := range plan.Skipped {
		f := *s.Finding
		f.Pos.File = rel(f.Pos.File)
		fmt.Fprintf(stderr, "ctrllint: warning: %s\n", finding.SkippedFix{Finding: &f, Reason: s.Reason})
		linked = linked || strings.Contains(s.Reason, finding.OutsideModule)
	}
	if linked {
		fmt.Fprintln(stderr, "ctrllint: -fix-outside-module writes through symbolic links to files outside their module")
	}
	if err := plan.Write(); err != nil {
		return nil, nil, err
	}
	var left []finding.Finding
	n := 0
	for i, f := range findings {
		if plan.Applied[i] {
			n++
		} else {
			left = append(left, plan.Relocate(f))
		}
	}
	if n > 0 {
		fmt.Fprintf(stderr, "ctrllint: applied %d fixes to %d files\n", n, len(plan.Files))
	}
	return left, plan, nil
}

func explain(name string, stdout, stderr io.Writer, s suite) int {
	for _, a := range s.analyzers {
		if a.Name == name {
			in := s.info(a)
			fmt.Fprintf(stdout, "%s: %s\n\n%s", in.Name, in.Summary, in.Text)
			if !strings.HasSuffix(in.Text, "\n") {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "\nOnline documentation: %s\n", in.URL)
			return exitClean
		}
	}
	fmt.Fprintf(stderr, "ctrllint: -explain: unknown analyzer %q (known: %s)\n", name, knownNames(s.analyzers))
	return exitError
}

func list(stdout io.Writer, s suite, enabled []*analysis.Analyzer) {
	tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', 0)
	for _, a := range s.analyzers {
		state := "disabled"
		for _, e := range enabled {
			if e == a {
				state = "enabled"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", a.Name, state, s.info(a).Summary)
	}
	tw.Flush()
}

// workDir is the directory patterns and printed paths are relative to:
// the -C directory if given, else the current one.
func workDir(dir string) (string, error) {
	if dir == "" {
		return os.Getwd()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("-C: %v", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("-C: %s is not a directory", dir)
	}
	return abs, nil
}

// relativizer returns a function that shortens paths beneath wd to be
// relative to it, and leaves the others absolute: relative paths are what
// editors and CI logs link best, but "../../x" is harder to read than the
// absolute path.
func relativizer(wd string) func(string) string {
	return func(file string) string {
		if file == "" || !filepath.IsAbs(file) {
			return file
		}
		r, err := filepath.Rel(wd, file)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return file
		}
		return r
	}
}

// startProfiles starts the -cpuprofile and -memprofile profiles; the
// function it returns writes them.
func startProfiles(o *options) (stop func(), err error) {
	var cpu *os.File
	if o.cpuprof != "" {
		if cpu, err = os.Create(o.cpuprof); err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, err
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if o.memprof != "" {
			if f, err := os.Create(o.memprof); err == nil {
				runtime.GC()
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
	}, nil
}
