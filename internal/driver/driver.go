// Package driver loads Go packages and runs ctrllint's analyzers over them.
// It is shared by every front end that analyses from source (the ctrllint
// command, the editor server, benchmarks), so that they agree on what is
// loaded, which test variants count, how findings are ordered and
// deduplicated, and how fixes are applied. go vet's -vettool mode does not
// use it: there the go command does the loading and unitchecker the running.
package driver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/token"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/crash"
	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// Config says what to analyse and with which analyzers.
type Config struct {
	// Dir is the directory the go command runs in; patterns are relative
	// to it. Empty means the current directory.
	Dir string
	// Patterns are go list package patterns. At least one is required:
	// an empty list is an error rather than an implicit ".", because a
	// silently narrowed run looks exactly like a clean one.
	Patterns []string
	// Tags are build tags, passed to the go command as -tags.
	Tags []string
	// Tests includes _test.go files, as go vet does.
	Tests bool
	// Analyzers to run.
	Analyzers []*analysis.Analyzer
	// Env is the go command's environment; nil means os.Environ().
	Env []string
	// CacheDir, if set, is where Analyze keeps results per package,
	// keyed by content (cache.go): a run over unchanged packages loads
	// nothing and analyses nothing.
	CacheDir string
	// WholePackages are the import paths of packages whose scopes the
	// analyzers read beyond what the analysed package imports (such as
	// client-go's cache package, found through kube.LookupPackage). When
	// dependencies come from export data, such a package is decoded whole
	// if it is in the graph, so that what the analyzers find there does
	// not depend on which other packages the run decoded.
	WholePackages []string
	// Phases, if set, is told when the run enters each Phase, so that the
	// front end can tune what is process-wide (the collector): the driver
	// changes no process-wide setting itself. It is called in the order of
	// the phases and never concurrently; Done always follows Loading.
	Phases func(Phase)
}

// A Phase is a stage of a run, as Config.Phases is told of it.
type Phase int

const (
	// Loading: the packages are listed and the dependencies' export data
	// decoded, building a heap that stays live until the run ends.
	Loading Phase = iota
	// Grown: one more dependency is decoded; the heap has grown.
	Grown
	// Decoded: every dependency is decoded; what remains is analysing
	// the roots, each of which is dropped when done.
	Decoded
	// Done: the run is over.
	Done
)

// loadOptions is what loading needs of cfg.
func (cfg *Config) loadOptions() *load.Options {
	return &load.Options{Dir: cfg.Dir, Patterns: cfg.Patterns, Tags: cfg.Tags, Tests: cfg.Tests, Env: cfg.Env}
}

// What loading reports is part of the driver's API: front ends call only
// the driver.
type (
	// LoadError means some packages could not be loaded or type-checked.
	LoadError = load.Error
	// Problem is one reason packages could not be loaded or type-checked.
	Problem = load.Problem
)

// ErrNoPatterns is returned when no package patterns are given.
var ErrNoPatterns = load.ErrNoPatterns

// RootMode is the packages.Mode Load uses. The benchmark's floor
// (hack/bench/floor) loads with it, so that the floor is exactly
// ctrllint's own loading and type-checking, and nothing more.
const RootMode = load.RootMode

// Load loads the packages matching cfg.Patterns, syntax and types
// included, ready for Run (load.Packages).
func Load(ctx context.Context, cfg *Config) ([]*packages.Package, error) {
	return load.Packages(ctx, cfg.loadOptions())
}

// phase tells cfg.Phases, if set, that the run entered p.
func (cfg *Config) phase(p Phase) {
	if cfg.Phases != nil {
		cfg.Phases(p)
	}
}

// Result is what one analysis run found.
type Result struct {
	Findings []finding.Finding
	// Errors are analyzers that failed (returned an error or panicked)
	// on some package. Findings of the other analyzers are still complete.
	Errors []*AnalyzerError

	// parsed holds the hash of each file's content as the analyzers saw
	// it, when the driver parsed it (the streaming path); the zero hash
	// marks a file seen with two contents in one run.
	parsed map[string]load.FileHash
}

// addParsed merges the hashes of files parsed for another package.
func (r *Result) addParsed(m map[string]load.FileHash) {
	if r.parsed == nil {
		r.parsed = make(map[string]load.FileHash, len(m))
	}
	for f, h := range m {
		if old, ok := r.parsed[f]; ok && old != h {
			h = load.FileHash{}
		}
		r.parsed[f] = h
	}
}

// AnalyzerError is an analyzer failing on one package: a bug in the
// analyzer (or in ctrllint), not in the code being analysed.
type AnalyzerError struct {
	Analyzer string
	Package  string
	// Pos is the analysed code the analyzer was working on when it
	// panicked, when it said (crash.At); zero otherwise (an error returned
	// by Run does not say where).
	Pos finding.Position
	// Err is the analyzer's error, or a *crash.Panic when it panicked.
	Err error
	// Stack is the goroutine stack when the analyzer panicked; front ends
	// show it only when asked, since users cannot act on it.
	Stack string
}

func (e *AnalyzerError) Error() string {
	at := ""
	if e.Pos.File != "" {
		at = " at " + e.Pos.String()
	}
	return fmt.Sprintf("internal error: analyzer %s failed on package %s%s: %v", e.Analyzer, e.Package, at, e.Err)
}

func (e *AnalyzerError) Unwrap() error { return e.Err }

// Analyze loads the packages and runs the analyzers on them: it lists
// the packages, takes what the result cache holds for them, analyses the
// others, and stores their findings in the cache.
//
// If some packages cannot be loaded or type-checked, the error is a
// *LoadError and the result holds the findings of the packages that
// could be analysed: one broken package should not hide what is wrong in
// the others, but callers must still treat the run as failed.
func Analyze(ctx context.Context, cfg *Config) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return &Result{}, err
	}
	cache := openCache(ctx, cfg, time.Now())
	defer cache.get()

	res := &Result{}
	toAnalyse := *cfg
	var keyedBy map[string]*packages.Package // keys from a listing of their own
	if c := cache.used(); c != nil {
		missed, byID, ok := lookUp(ctx, cfg, c, res)
		if ok && len(missed) == 0 {
			finding.Sort(res.Findings)
			return res, nil
		}
		if ok {
			toAnalyse.Patterns, keyedBy = missed, byID
		}
	}

	var stored atomic.Bool
	fresh, err := analyzeStreaming(ctx, &toAnalyse, func(p *packages.Package, r *Result) {
		c := cache.get()
		if c == nil || len(r.Errors) > 0 {
			return
		}
		if keyedBy != nil {
			// Keyed from the look-up's listing, which names the same
			// packages by the same IDs.
			if p = keyedBy[p.ID]; p == nil {
				return
			}
		}
		if c.Keyed(p) && c.Put(p, r.Findings, r.parsed) {
			stored.Store(true)
		}
	})
	if stored.Load() {
		cache.get().MarkUsed()
	}
	if _, ok := err.(*LoadError); err != nil && !ok {
		return res, err
	}
	res.Findings = finding.Dedup(append(res.Findings, fresh.Findings...))
	res.Errors = fresh.Errors
	finding.Sort(res.Findings)
	return res, err
}

// Run runs cfg.Analyzers over packages already loaded by Load with the
// same cfg. It is separate from Analyze so that callers that keep
// packages (the editor server, benchmarks) can re-run analyzers without
// reloading.
func Run(cfg *Config, pkgs []*packages.Package) (*Result, error) {
	if len(cfg.Analyzers) == 0 || len(pkgs) == 0 {
		return &Result{}, nil
	}
	wrapped, orig := guard(cfg.Analyzers, nil)
	graph, err := checker.Analyze(wrapped, pkgs, nil)
	if err != nil {
		return nil, err
	}

	res := &Result{}
	collect(res, graph, orig)
	finding.Sort(res.Findings)
	sortErrors(res.Errors)
	return res, nil
}

// collect adds the root actions' diagnostics and failures to res, each
// finding once: the same file is analysed in more than one package when a
// pattern names both p and its test variant, and it must be reported once.
func collect(res *Result, graph *checker.Graph, orig map[*analysis.Analyzer]*analysis.Analyzer) {
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		a := orig[act.Analyzer]
		ps := newPositions(act.Package)
		for _, d := range act.Diagnostics {
			f := convert(ps, a, d)
			f.Package = act.Package.ID
			res.Findings = append(res.Findings, f)
		}
		if act.Err != nil {
			ae := &AnalyzerError{Analyzer: a.Name, Package: act.Package.ID, Err: act.Err}
			// The checker says only "failed prerequisites"; name the
			// analyzer that actually failed and its error.
			if cause := rootCause(act); cause != act {
				ae.Err = fmt.Errorf("required analyzer %s failed: %w", orig[cause.Analyzer].Name, cause.Err)
			}
			var p *crash.Panic
			if errors.As(ae.Err, &p) {
				ae.Stack = p.Stack
				if p.Pos.IsValid() {
					ae.Pos = finding.Position{File: p.Pos.Filename, Offset: p.Pos.Offset, Line: p.Pos.Line, Column: p.Pos.Column}
				}
			}
			res.Errors = append(res.Errors, ae)
		}
	}
	res.Findings = finding.Dedup(res.Findings)
}

// sortErrors puts analyzer failures in the order every output uses.
func sortErrors(es []*AnalyzerError) {
	slices.SortFunc(es, func(x, y *AnalyzerError) int {
		return cmp.Or(cmp.Compare(x.Package, y.Package), cmp.Compare(x.Analyzer, y.Analyzer))
	})
}

func rootCause(act *checker.Action) *checker.Action {
	for _, d := range act.Deps {
		if d.Err != nil {
			return rootCause(d)
		}
	}
	return act
}

func convert(ps *positions, a *analysis.Analyzer, d analysis.Diagnostic) finding.Finding {
	f := finding.Finding{
		Analyzer: a.Name,
		Category: d.Category,
		Message:  strings.TrimSpace(d.Message),
		URL:      d.URL,
		Pos:      ps.at(d.Pos),
	}
	f.End = f.Pos
	if d.End.IsValid() && d.End >= d.Pos {
		f.End = ps.at(d.End)
	}
fixes:
	for _, sf := range d.SuggestedFixes {
		fix := finding.Fix{Message: sf.Message}
		for _, te := range sf.TextEdits {
			end := te.End
			if !end.IsValid() {
				end = te.Pos
			}
			e := finding.Edit{Pos: position(ps.fset, te.Pos), End: position(ps.fset, end), NewText: string(te.NewText)}
			if ps.cgo[e.Pos.File] {
				var ok bool
				if e, ok = ps.edit(e, te.Pos, end); !ok {
					continue fixes // no faithful edit of the user's file: the finding stands without this fix
				}
			}
			fix.Edits = append(fix.Edits, e)
		}
		f.Fixes = append(f.Fixes, fix)
	}
	return f
}

// position is pos in the file parsed, ignoring //line directives.
func position(fset *token.FileSet, pos token.Pos) finding.Position {
	if !pos.IsValid() {
		return finding.Position{}
	}
	tf := fset.File(pos)
	if tf == nil {
		return finding.Position{}
	}
	p := tf.PositionFor(pos, false)
	return finding.Position{File: p.Filename, Offset: p.Offset, Line: p.Line, Column: p.Column}
}
