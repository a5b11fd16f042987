// Package driver loads Go packages and runs ctrllint's analyzers over them.
// It is shared by every front end that analyses from source (the ctrllint
// command, the editor server, benchmarks), so that they agree on what is
// loaded, which test variants count, and how findings are made. go vet's
// -vettool mode does not use it: there the go command does the loading and
// unitchecker the running.
//
// The driver calls down, never up: loading is internal/driver/load, the
// result cache internal/driver/resultcache, and what a run reports
// internal/finding. docs/architecture.md draws the layout.
package driver

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/lend"
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
	// Overlay replaces the content of files, by absolute path, for both
	// the go command's listing and the parsing (packages.Config.Overlay):
	// the editor's unsaved buffers. A run with an overlay bypasses the
	// result cache (CacheDir): its results are of text that is not on
	// disk, and the cache keys packages by what is.
	Overlay map[string][]byte
	// CacheDir, if set, is where Analyze keeps results per package,
	// keyed by content (cache.go): a run over unchanged packages loads
	// nothing and analyses nothing.
	CacheDir string
	// ExportDir, if set, is where dependencies that the go command has
	// not built, type-checked from source, leave their export data, so
	// that a later run decodes it instead (load.Options' ExportDir). An
	// overlay does not bypass it: only packages nobody edits are kept.
	ExportDir string
	// FromSource type-checks every dependency from source, or decodes
	// the export data ExportDir keeps, as a first run on a machine that
	// has built nothing does, whatever the go command has built
	// (load.Options' FromSource): the first run's path, tested.
	FromSource bool
	// WholePackages are the import paths of packages whose scopes the
	// analyzers read beyond what the analysed package imports (such as
	// client-go's cache package, found through kube.LookupPackage). When
	// dependencies come from export data, such a package is decoded whole
	// if it is in the graph, so that what the analyzers find there does
	// not depend on which other packages the run decoded.
	WholePackages []string
	// SummaryImports are the import path prefixes of the APIs the
	// analyzers' summaries are about: a package of an analysed module that
	// a root imports is analysed for its facts when it imports one of them
	// (units.go). Nil means every such package.
	SummaryImports []string
	// Phases, if set, is told when the run enters each Phase, so that the
	// front end can tune what is process-wide (the collector): the driver
	// changes no process-wide setting itself. It is called in the order of
	// the phases and never concurrently; Done always follows Loading.
	Phases func(Phase)
	// Progress, if set, is told how far Analyze has got each time that
	// changes (progress.go), so that a front end can show it; the driver
	// knows nothing of terminals. It is called one call at a time, in the
	// order of the changes, from the goroutines doing the work, with a lock
	// held that they wait for: it must return quickly and not call the
	// driver.
	Progress func(Progress)

	progress *progress // Progress's state, set by Analyze
	// sources says which packages are listed without export data
	// (load.List): SourceRoots, set by Analyze for a re-run after an
	// edit.
	sources load.Sources
}

// A Phase is a stage of a run, as Config.Phases is told of it.
type Phase int

const (
	// Loading: the packages are listed and the dependencies' export data
	// decoded, building a heap that stays live until the run ends.
	Loading Phase = iota
	// Grown: one more dependency is decoded, or type-checked from source
	// (load.Unbuilt); the heap has grown.
	Grown
	// Decoded: every dependency is decoded or type-checked; what remains is analysing
	// the roots, each of which is dropped when done.
	Decoded
	// Done: the run is over.
	Done
)

// loadOptions is what loading needs of cfg.
func (cfg *Config) loadOptions() *load.Options {
	return &load.Options{Dir: cfg.Dir, Patterns: cfg.Patterns, Tags: cfg.Tags, Tests: cfg.Tests, Env: cfg.Env, Overlay: cfg.Overlay, ExportDir: cfg.ExportDir, FromSource: cfg.FromSource, WholePackages: cfg.WholePackages}
}

// What loading reports is part of the driver's API: front ends call only
// the driver.
type (
	// LoadError means some packages could not be loaded or type-checked.
	LoadError = load.Error
	// Problem is one reason packages could not be loaded or type-checked.
	Problem = load.Problem
)

// Limit is a bound an analyzer reached in one package.
type Limit = lend.Limit

// ErrNoPatterns is returned when no package patterns are given.
var ErrNoPatterns = load.ErrNoPatterns

// RootMode is the packages.Mode Load uses. The benchmark's floor
// (hack/bench/floor) loads with it, so that the floor is exactly
// ctrllint's own loading and type-checking, and nothing more.
const RootMode = load.RootMode

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
	// Limits are the bounds analyzers reached in the packages analysed
	// (lend.LimitHit), where a bound rather than the code decided: for a
	// front end to show when asked. A package whose findings came from
	// the result cache tells those its analysis reached; a dependency's,
	// reached while summarising it, only the run that summarised it.
	Limits []Limit

	// parsed holds the hash of each file's content as the analyzers saw
	// it: parsed by the driver (the streaming path), read to map cgo's
	// positions back, or keyed for a result taken from the cache. The
	// zero hash marks a file seen with two contents in one run.
	parsed map[string]load.FileHash
}

// Analysed returns the digest of file's content as the analyzers read it,
// which the offsets of the findings and fixes in file refer to: a front
// end that writes fixes checks that the file still has it (an editor may
// have saved it during the run). ok is false when the run did not read
// file, or read it with two contents.
func (r *Result) Analysed(file string) (digest finding.Digest, ok bool) {
	h, ok := r.parsed[file]
	return h, ok && h != load.FileHash{}
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
