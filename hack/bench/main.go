// Command bench measures ctrllint side by side with the floor (loading and
// type-checking the same packages with go/packages, nothing else), go vet,
// go vet -vettool=ctrllint and staticcheck, on pinned corpus entries, and
// times the editor server from save to diagnostics (docs/performance.md).
//
//	go run ./hack/bench [-rounds 5] [-targets kubernetes,controller-runtime] ...
//
// `make bench` runs it after the micro-benchmarks. The report (Markdown) is
// printed and written to -o; the raw samples go beside it as JSON.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

type options struct {
	ctrllint       string
	targets        []string
	rounds         int
	tools          map[string]bool
	warmup         bool
	scale          string
	scaleRounds    int
	lspFixture     string
	lspPackage     string
	lspSaves       int
	edit           string
	generated      int
	editor         string
	editorLine     string
	editorEdits    int
	gopls          string
	corpusFile     string
	corpusCache    string
	cache          string
	binDir         string
	scVersion      string
	cacheFlag      string
	cacheEnv       string
	interval       time.Duration
	timeout        time.Duration
	out            string
	rawOut         string
	staticcheckBin string
	render         string
	empty          string
	emptyRounds    int
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if o.render != "" {
		err = render(o.render)
	} else {
		err = run(o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	cache := filepath.Join(userCache(), "ctrllint")
	fs.StringVar(&o.ctrllint, "ctrllint", "bin/ctrllint", "the ctrllint binary (make build)")
	targets := fs.String("targets", "kubernetes,controller-runtime", "comma-separated corpus.json entries to compare the tools on")
	fs.IntVar(&o.rounds, "rounds", 5, "measured rounds per target; each runs every tool once per state, interleaved")
	tools := fs.String("tools", strings.Join(allTools, ","), "comma-separated tools to run: "+strings.Join(allTools, ", "))
	fs.BoolVar(&o.warmup, "warmup", true, "run one unmeasured round per target first (fills the build cache and the page cache)")
	fs.StringVar(&o.scale, "scale", "materialised", "corpus entries for the time-per-package table: comma-separated names, \"materialised\" (every entry already materialised) or \"none\"")
	fs.IntVar(&o.scaleRounds, "scale-rounds", 3, "rounds of floor and ctrllint on scaling entries that are not targets")
	fs.StringVar(&o.lspFixture, "lsp-fixture", "testdata/src/current/example", "fixture package directory for the editor-server timing (copied to a temporary module); empty: skip")
	fs.StringVar(&o.lspPackage, "lsp-package", "kubernetes:k8s.io/kubernetes/pkg/controller/deployment", "ENTRY:PACKAGE of a corpus entry for the editor-server timing (copied into a temporary module beside the entry's go.mod); empty: skip")
	fs.IntVar(&o.lspSaves, "lsp-saves", 6, "saves timed per editor-server package")
	fs.StringVar(&o.edit, "edit", "sample-controller:controller.go", "ENTRY:FILE for the edit scenario: the entry's module copied out of the module cache as a main module, FILE (relative to its root) edited by one line before ctrllint's re-run; empty: skip")
	fs.IntVar(&o.generated, "generated", 258, "kinds of the generated scenario: a package of internal/synthetic's deep copies, defaulters and listers (some 130 lines a kind) beside a small controller, in a scratch module; 0: skip")
	fs.StringVar(&o.editor, "editor", "kubernetes:k8s.io/kubernetes/pkg/controller/deployment:deployment_controller.go", "ENTRY:PACKAGE:FILE for the editor-typing scenario: the package copied into a temporary module, FILE opened in ctrllint gopls and in gopls and edited through didChange; empty: skip")
	fs.StringVar(&o.editorLine, "editor-line", "defer dc.queue.Done(key)", "the line of -editor's FILE the edits delete and put back (indentation aside): one whose absence ctrllint reports")
	fs.IntVar(&o.editorEdits, "editor-edits", 6, "edits timed in the editor-typing scenario, alternately deleting the line and putting it back")
	fs.StringVar(&o.gopls, "gopls", defaultGopls(), "the gopls for the editor-typing scenario (make gopls builds it here); none there: the scenario is skipped")
	fs.StringVar(&o.empty, "empty", "fixture,kubernetes", "comma-separated targets of the empty-build-cache scenario: \"fixture\" (testdata/src/current) or corpus entries; empty: skip")
	fs.IntVar(&o.emptyRounds, "empty-rounds", 1, "rounds of the empty-build-cache scenario (each tool compiles or type-checks everything, minutes a run)")
	fs.StringVar(&o.corpusFile, "corpus", locate(filepath.Join("hack", "corpus", "corpus.json")), "the corpus configuration")
	fs.StringVar(&o.corpusCache, "corpus-cache", defaultCorpusCache(), "where hack/corpus materialises entries")
	fs.StringVar(&o.cache, "cache", filepath.Join(cache, "bench"), "the benchmark's scratch and output directory")
	fs.StringVar(&o.binDir, "bin", filepath.Join(cache, "bin"), "where tools are installed")
	fs.StringVar(&o.scVersion, "staticcheck-version", staticcheckVersion, "honnef.co/go/tools version to install")
	fs.StringVar(&o.staticcheckBin, "staticcheck", "", "a staticcheck binary to use instead of installing one")
	fs.StringVar(&o.cacheFlag, "ctrllint-cache-flag", "cache", "the ctrllint flag naming its result cache directory, if ctrllint -h lists it")
	fs.StringVar(&o.cacheEnv, "ctrllint-cache-env", "CTRLLINT_CACHE", "the environment variable naming ctrllint's result cache directory, if ctrllint -h mentions it")
	fs.DurationVar(&o.interval, "sample", 50*time.Millisecond, "interval at which the process tree's memory is sampled")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Minute, "limit for one run of one tool")
	fs.StringVar(&o.out, "o", "", "write the Markdown report here (default: bench.md in -cache)")
	fs.StringVar(&o.render, "render", "", "print the report of an earlier run from its raw samples (the .json beside -o) and exit")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	o.targets = splitList(*targets)
	o.tools = map[string]bool{}
	for _, t := range splitList(*tools) {
		if !slices.Contains(allTools, t) {
			return nil, fmt.Errorf("-tools: unknown tool %q (known: %s)", t, strings.Join(allTools, ", "))
		}
		o.tools[t] = true
	}
	if o.rounds < 1 {
		return nil, fmt.Errorf("-rounds must be at least 1")
	}
	if o.editor != "" {
		if _, _, _, err := parseEditor(o.editor); err != nil {
			return nil, err
		}
		if o.editorEdits < 1 {
			return nil, fmt.Errorf("-editor-edits must be at least 1")
		}
		if strings.TrimSpace(o.editorLine) == "" {
			return nil, fmt.Errorf("-editor-line is empty")
		}
	}
	if o.out == "" {
		o.out = filepath.Join(o.cache, "bench.md")
	}
	o.rawOut = strings.TrimSuffix(o.out, filepath.Ext(o.out)) + ".json"
	return o, nil
}

func splitList(s string) []string {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// bench holds what every run needs.
type bench struct {
	o           *options
	ctrllint    string
	floor       string
	staticcheck string
	cacheCtl    cacheSupport
	ctrllintDir string // ctrllint's result cache, when it has one
	scratch     string // salted vet tools, staticcheck caches
	lspMax      int64
}

func run(o *options) error {
	b := &bench{o: o}
	var err error
	if b.ctrllint, err = filepath.Abs(o.ctrllint); err != nil {
		return err
	}
	if !exists(b.ctrllint) {
		return fmt.Errorf("no ctrllint binary at %s (make build)", b.ctrllint)
	}
	if err := os.MkdirAll(o.cache, 0o755); err != nil {
		return err
	}
	b.scratch, err = os.MkdirTemp(o.cache, "run-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(b.scratch)
	// Measure a copy, so that rebuilding bin/ctrllint during a long run
	// changes nothing.
	if b.ctrllint, err = snapshot(b.ctrllint, b.scratch); err != nil {
		return err
	}
	if b.floor, err = buildFloor(o.cache); err != nil {
		return err
	}
	if o.tools["staticcheck"] {
		if o.staticcheckBin != "" {
			b.staticcheck, err = filepath.Abs(o.staticcheckBin)
		} else {
			b.staticcheck, err = installStaticcheck(o.binDir, o.scVersion)
		}
		if err != nil {
			return err
		}
	}
	b.cacheCtl = detectCache(ctrllintHelp(b.ctrllint), o.cacheFlag, o.cacheEnv)
	b.ctrllintDir = filepath.Join(o.cache, "ctrllint-cache")

	cfg, err := loadCorpus(o.corpusFile)
	if err != nil {
		return err
	}
	entries, err := cfg.lookup(o.targets)
	if err != nil {
		return err
	}
	rep := &report{
		Started:     time.Now(),
		LoadStart:   loadAvg(),
		CPUs:        runtime.NumCPU(),
		Go:          toolVersion("go", "version"),
		Ctrllint:    toolVersion(b.ctrllint, "-V"),
		Cache:       b.cacheCtl.String(),
		Rounds:      o.rounds,
		Warmup:      o.warmup,
		ScaleRounds: o.scaleRounds,
	}
	if b.staticcheck != "" {
		rep.Staticcheck = toolVersion(b.staticcheck, "-version")
	}
	rep.Order = b.order()
	fmt.Fprintf(os.Stderr, "bench: ctrllint result cache: %s; rounds per target: %d; order: %s\n", rep.Cache, o.rounds, strings.Join(rep.Order, ", "))

	for _, e := range entries {
		if err := materialise(e, o.corpusCache, b.ctrllint); err != nil {
			return err
		}
		pats, err := e.packages(o.corpusCache)
		if err != nil {
			return err
		}
		t := &targetResult{Entry: e.Name, Dir: e.dir(o.corpusCache), Patterns: pats}
		if t.Size, err = measureSize(t.Dir, pats); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "bench: %s: %d packages, %d lines in %s\n", e.Name, t.Size.Packages, t.Size.Lines, t.Dir)
		if o.warmup {
			b.round(t, 0, true)
		}
		for r := 1; r <= o.rounds; r++ {
			b.round(t, r, false)
		}
		rep.Targets = append(rep.Targets, t)
		if err := rep.save(o); err != nil { // a partial report, in case a later step fails
			return err
		}
	}

	if o.edit != "" && o.tools["floor"] && o.tools["ctrllint"] {
		t, err := b.editScenario(cfg)
		if err != nil {
			return err
		}
		rep.Edit = t
		if err := rep.save(o); err != nil {
			return err
		}
	}

	if o.generated > 0 && o.tools["floor"] && o.tools["ctrllint"] {
		t, err := b.generatedScenario()
		if err != nil {
			return err
		}
		rep.Generated = t
		if err := rep.save(o); err != nil {
			return err
		}
	}

	if o.scale != "none" && o.tools["floor"] && o.tools["ctrllint"] {
		rep.Scale, err = b.scaling(cfg, rep.Targets)
		if err != nil {
			return err
		}
	}
	if o.empty != "" && o.tools["floor"] {
		rep.Empty, err = b.emptyScenario(cfg)
		if err != nil {
			return err
		}
		if err := rep.save(o); err != nil {
			return err
		}
	}
	rep.LSP = b.lspAll(cfg)
	if o.editor != "" {
		rep.Editor = b.editorTyping(cfg)
	}
	rep.LoadEnd = loadAvg()
	rep.Finished = time.Now()

	if err := rep.save(o); err != nil {
		return err
	}
	fmt.Print(rep.markdown())
	fmt.Fprintf(os.Stderr, "bench: report written to %s (raw samples: %s)\n", o.out, o.rawOut)
	return nil
}

// save writes the report and its raw samples.
func (r *report) save(o *options) error {
	if r.Finished.IsZero() {
		defer func() { r.Finished = time.Time{} }()
		r.Finished = time.Now()
		r.LoadEnd = loadAvg()
	}
	if err := os.WriteFile(o.out, []byte(r.markdown()), 0o644); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(o.rawOut, raw, 0o644)
}

// snapshot copies the executable bin into dir.
func snapshot(bin, dir string) (string, error) {
	data, err := os.ReadFile(bin)
	if err != nil {
		return "", err
	}
	to := filepath.Join(dir, filepath.Base(bin))
	return to, os.WriteFile(to, data, 0o755)
}

// render prints the Markdown report of an earlier run's JSON.
func render(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var rep report
	if err := json.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	fmt.Print(rep.markdown())
	return nil
}

// order is the sequence of runs in a round.
func (b *bench) order() []string {
	var out []string
	if b.o.tools["floor"] {
		out = append(out, toolFloor)
	}
	if b.o.tools["ctrllint"] {
		out = append(out, toolCtrllint+" (cold)", toolCtrllint+" (warm)")
	}
	if b.o.tools["vet"] {
		out = append(out, toolVet+" (cold)", toolVet+" (warm)")
	}
	if b.o.tools["vettool"] {
		out = append(out, toolVettool+" (cold)", toolVettool+" (warm)")
	}
	if b.o.tools["staticcheck"] {
		out = append(out, toolStaticcheck+" (cold)", toolStaticcheck+" (warm)")
	}
	return out
}

// round runs every tool once per state on t. A warm-up round's samples are
// not recorded.
func (b *bench) round(t *targetResult, n int, warmup bool) {
	b.roundEnv(t, n, warmup, os.Environ(), nil)
}

// roundEnv is round with env as every command's environment, and, when
// not nil, afterCtrllint run after ctrllint's warm run (edit.go).
func (b *bench) roundEnv(t *targetResult, n int, warmup bool, env []string, afterCtrllint func(record func(tool, state string, cmd *exec.Cmd))) {
	o := b.o
	record := func(tool, state string, cmd *exec.Cmd) {
		if cmd.Env == nil {
			cmd.Env = env
		}
		what := fmt.Sprintf("%s round %d/%d", t.Entry, n, o.rounds)
		if warmup {
			what = t.Entry + " warm-up"
		}
		b.run(t, tool, state, what, !warmup, cmd)
	}
	pats := t.Patterns

	if o.tools["floor"] {
		record(toolFloor, stateNone, exec.Command(b.floor, append([]string{"-test=false"}, pats...)...))
	}
	if o.tools["ctrllint"] {
		os.RemoveAll(b.ctrllintDir)
		record(toolCtrllint, stateCold, b.ctrllintCmd(env, pats))
		record(toolCtrllint, stateWarm, b.ctrllintCmd(env, pats))
		if afterCtrllint != nil {
			afterCtrllint(record)
		}
	}
	if o.tools["vet"] {
		flag := vetSaltFlag(salt())
		mk := func() *exec.Cmd { return exec.Command("go", append([]string{"vet", flag}, pats...)...) }
		record(toolVet, stateCold, mk())
		record(toolVet, stateWarm, mk())
	}
	if o.tools["vettool"] {
		tool, err := saltedCopy(b.ctrllint, b.scratch)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: copying ctrllint: %v\n", t.Entry, err)
		} else {
			mk := func() *exec.Cmd { return exec.Command("go", append([]string{"vet", "-vettool=" + tool}, pats...)...) }
			record(toolVettool, stateCold, mk())
			record(toolVettool, stateWarm, mk())
			os.Remove(tool)
		}
	}
	if o.tools["staticcheck"] {
		dir, err := os.MkdirTemp(b.scratch, "staticcheck-cache-")
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", t.Entry, err)
		} else {
			mk := func() *exec.Cmd {
				cmd := exec.Command(b.staticcheck, append([]string{"-tests=false"}, pats...)...)
				cmd.Env = append(slices.Clip(env), "STATICCHECK_CACHE="+dir)
				return cmd
			}
			record(toolStaticcheck, stateCold, mk())
			record(toolStaticcheck, stateWarm, mk())
			os.RemoveAll(dir)
		}
	}
}

// run measures cmd in t's directory, logs it as what, and, when keep,
// adds it to the row of tool in state.
func (b *bench) run(t *targetResult, tool, state, what string, keep bool, cmd *exec.Cmd) {
	cmd.Dir = t.Dir
	ctx, cancel := context.WithTimeout(context.Background(), b.o.timeout)
	defer cancel()
	s := measure(ctx, cmd, b.o.interval, func(exit int) bool { return exit == 0 || exit == 1 })
	if keep {
		t.row(tool, state).Samples = append(t.row(tool, state).Samples, s)
	}
	status := ""
	if s.Err != "" {
		status = " FAILED: " + s.Err
	}
	fmt.Fprintf(os.Stderr, "bench: %s: %s: %s, cpu %s, tree %s, largest %s%s\n", what, (&row{Tool: tool, State: state}).label(),
		seconds(s.Wall.Seconds()), seconds(s.CPU.Seconds()), megabytes(float64(s.TreeRSS)), megabytes(float64(s.MaxRSS)), status)
}

// ctrllintCmd runs ctrllint on pats with its result cache in
// b.ctrllintDir.
func (b *bench) ctrllintCmd(env, pats []string) *exec.Cmd {
	args := []string{"-test=false"}
	cmd := exec.Command(b.ctrllint)
	cmd.Env = env
	switch {
	case b.cacheCtl.Flag != "":
		args = append(args, "-"+b.cacheCtl.Flag+"="+b.ctrllintDir)
	case b.cacheCtl.Env != "":
		cmd.Env = append(slices.Clip(env), b.cacheCtl.Env+"="+b.ctrllintDir)
	}
	cmd.Args = append(cmd.Args, append(args, pats...)...)
	return cmd
}

// scaling measures the floor and ctrllint (cold) on each scaling entry that
// is not a target, and reuses the targets' rows for those that are.
func (b *bench) scaling(cfg *corpusConfig, targets []*targetResult) ([]scalePoint, error) {
	var names []string
	if b.o.scale == "materialised" {
		for _, e := range cfg.Entries {
			if e.materialised(b.o.corpusCache) {
				names = append(names, e.Name)
			}
		}
	} else {
		names = splitList(b.o.scale)
	}
	entries, err := cfg.lookup(names)
	if err != nil {
		return nil, err
	}
	var points []scalePoint
	for _, e := range entries {
		if i := slices.IndexFunc(targets, func(t *targetResult) bool { return t.Entry == e.Name }); i >= 0 {
			points = append(points, newScalePoint(targets[i]))
			continue
		}
		if err := materialise(e, b.o.corpusCache, b.ctrllint); err != nil {
			return nil, err
		}
		pats, err := e.packages(b.o.corpusCache)
		if err != nil {
			return nil, err
		}
		t := &targetResult{Entry: e.Name, Dir: e.dir(b.o.corpusCache), Patterns: pats}
		if t.Size, err = measureSize(t.Dir, pats); err != nil {
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "bench: scaling: %s: %d packages, %d lines\n", e.Name, t.Size.Packages, t.Size.Lines)
		o := *b.o
		o.tools = map[string]bool{"floor": true, "ctrllint": true}
		o.rounds = b.o.scaleRounds
		sb := *b
		sb.o = &o
		if o.warmup {
			sb.round(t, 0, true)
		}
		for r := 1; r <= o.rounds; r++ {
			sb.round(t, r, false)
		}
		points = append(points, newScalePoint(t))
	}
	slices.SortFunc(points, func(x, y scalePoint) int { return x.Size.Packages - y.Size.Packages })
	return points, nil
}

// measureSize counts the packages the patterns match (as go list does,
// main packages included) and their non-test Go files and lines.
func measureSize(dir string, patterns []string) (size, error) {
	return measureSizeEnv(dir, patterns, nil)
}

// measureSizeEnv is measureSize with env as the go command's environment
// (nil: this process's).
func measureSizeEnv(dir string, patterns, env []string) (size, error) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-f", "{{.Dir}}{{range .GoFiles}}\t{{.}}{{end}}{{range .CgoFiles}}\t{{.}}{{end}}"}, patterns...)...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return size{}, fmt.Errorf("go list in %s: %v\n%s", dir, err, stderr.Bytes())
	}
	var s size
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) == 0 || f[0] == "" {
			continue
		}
		s.Packages++
		for _, name := range f[1:] {
			data, err := os.ReadFile(filepath.Join(f[0], name))
			if err != nil {
				continue
			}
			s.Files++
			s.Bytes += int64(len(data))
			s.Lines += bytes.Count(data, []byte("\n"))
		}
	}
	return s, nil
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// report is everything measured, and its rendering.
type report struct {
	Started     time.Time       `json:"started"`
	Finished    time.Time       `json:"finished"`
	LoadStart   string          `json:"loadStart"`
	LoadEnd     string          `json:"loadEnd"`
	CPUs        int             `json:"cpus"`
	Go          string          `json:"go"`
	Ctrllint    string          `json:"ctrllint"`
	Staticcheck string          `json:"staticcheck"`
	Cache       string          `json:"ctrllintCache"`
	Rounds      int             `json:"rounds"`
	Warmup      bool            `json:"warmup"`
	ScaleRounds int             `json:"scaleRounds"`
	Order       []string        `json:"order"`
	Targets     []*targetResult `json:"targets"`
	Scale       []scalePoint    `json:"scale"`
	LSP         []lspResult     `json:"lsp"`
	Edit        *targetResult   `json:"edit,omitempty"`
	Generated   *targetResult   `json:"generated,omitempty"`
	Editor      *editorResult   `json:"editor,omitempty"`
	Empty       []*targetResult `json:"empty,omitempty"`
}

func (r *report) markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# ctrllint side by side\n\n")
	p("Measured %s (%s) on %d CPUs; load average (1, 5, 15 min) %s at the start, %s at the end.\n",
		r.Started.Format("2006-01-02 15:04 MST"), r.Finished.Sub(r.Started).Round(time.Second), r.CPUs, r.LoadStart, r.LoadEnd)
	p("%s; %s; staticcheck %s; ctrllint's result cache: %s.\n", r.Go, r.Ctrllint, orDash(r.Staticcheck), r.Cache)
	warm := "after one unmeasured warm-up round"
	if !r.Warmup {
		warm = "without a warm-up round"
	}
	p("Medians of %s per target, %s; each round runs, in this order: %s.\n\n", plural(r.Rounds, "round"), warm, strings.Join(r.Order, ", "))
	p("The go build cache is warm for every run: the export data of dependencies is the go command's business, compiled by earlier runs (and the warm-up round, if any) and shared by every tool. ")
	p("**cold**: the tool's own result cache is empty — ctrllint's cache directory removed (when it has one), ")
	p("go vet's cached results keyed afresh (a fresh -printf.funcs name for go vet, a fresh copy of the binary for -vettool), a new empty STATICCHECK_CACHE. ")
	p("**warm**: the same command again at once, nothing changed. ")
	p("A tool without a cache of its own does the same work in both. ")
	p("ctrllint and the floor run with -test=false, staticcheck with -tests=false; go vet cannot leave out test files, so it analyses more.\n\n")
	p("wall: elapsed time, median (min–max). CPU: user+system time of the process and its descendants. ")
	p("peak RSS (tree): the largest sum of the resident memory of every process of the run, sampled every few tens of milliseconds from /proc (go vet runs a process per package; shared pages count once per process). ")
	p("peak RSS (largest process): the kernel's exact peak of the biggest single process (wait4). ")
	p("×staticcheck compares with staticcheck in the same state (cold for tools without a cache).\n")
	for _, t := range r.Targets {
		p("\n## %s\n\n", t.Entry)
		p("`%s` in %s: %d packages, %d files, %d lines of non-test Go.\n\n", strings.Join(t.Patterns, " "), t.Dir, t.Size.Packages, t.Size.Files, t.Size.Lines)
		p("%s", t.table())
		if notes := t.notes(true); notes != "" {
			p("\n%s", notes)
		}
	}
	if v := verdicts(r.Targets, r.LSP, r.Editor); len(v) > 0 {
		p("\n## The issue's targets\n\n")
		for _, x := range v {
			p("%s\n", x)
		}
	}
	if r.Edit != nil {
		p("%s", editMarkdown(r.Edit))
	}
	if r.Generated != nil {
		p("%s", generatedMarkdown(r.Generated))
	}
	if len(r.Empty) > 0 {
		p("%s", emptyMarkdown(r.Empty))
	}
	if len(r.Scale) > 0 {
		p("\n## Time per package\n\n")
		p("The floor and ctrllint (cold) on each materialised corpus entry: the targets' medians above, %s for the others.\n\n", plural(r.ScaleRounds, "round"))
		p("%s\n%s.\n", scaleTable(r.Scale), scaleFit(r.Scale))
		for _, s := range r.Scale {
			if notes := s.notes(); notes != "" {
				p("\n%s:\n\n%s", s.Entry, notes)
			}
		}
	}
	if len(r.LSP) > 0 {
		p("\n## Editor server\n\n")
		p("`ctrllint lsp` started in a temporary module holding a copy of the package (and the go.mod and go.sum it builds with); ")
		p("open → diagnostics is didOpen until the diagnostics of the opened file arrive, in a fresh server (its first analysis); ")
		p("save → diagnostics is didSave (the file rewritten unchanged, as an editor saving) until they arrive again, median (min–max) of the saves, each after the previous one's diagnostics. ")
		p("It includes the server's 50 ms debounce. The load/analysis split is the server's own log line for each save.\n\n")
		p("%s", lspTable(r.LSP))
	}
	if r.Editor != nil {
		p("%s", editorMarkdown(r.Editor))
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// notes lists failed runs and the exit statuses that qualify a row's
// figures: the floor's 1 (some packages did not type-check, so it did less
// than a clean load) always, the tools' 1 (findings) when findings is set.
func (t *targetResult) notes(findings bool) string {
	var b strings.Builder
	var shown *sample // the one failure whose output is shown
	for _, r := range t.Rows {
		exits := map[int]int{}
		var firstErr *sample
		for i, s := range r.Samples {
			exits[s.Exit]++
			if s.Err != "" && firstErr == nil {
				firstErr = &r.Samples[i]
			}
		}
		if firstErr != nil {
			fmt.Fprintf(&b, "- %s failed %d of %d runs (the first: %s)\n", r.label(), r.failures(), len(r.Samples), firstErr.Err)
			if shown == nil {
				shown = firstErr
			}
		}
		if n := exits[1]; n > 0 && (findings || r.Tool == toolFloor) {
			what := "findings reported"
			if r.Tool == toolFloor {
				what = "some packages did not load or type-check"
			}
			fmt.Fprintf(&b, "- %s exited 1 in %d of %d runs (%s)\n", r.label(), n, len(r.Samples), what)
		}
	}
	if shown != nil && strings.TrimSpace(shown.Stderr) != "" {
		fmt.Fprintf(&b, "\nThe end of the first failure's standard error:\n\n```\n%s\n```\n", lastLines(shown.Stderr, 6, 800))
	}
	return b.String()
}

// lastLines is the last n lines of s, at most max bytes of them.
func lastLines(s string, n, max int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return tail(strings.Join(lines, "\n"), max)
}
