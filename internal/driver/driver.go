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
	"crypto/sha256"
	"errors"
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/crash"
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
}

// Position is a place in a file. Offset and Column count bytes, as
// go/token does; converting to other units is the output format's job.
type Position struct {
	File   string // absolute path
	Offset int    // 0-based byte offset
	Line   int    // 1-based
	Column int    // 1-based, in bytes
}

func (p Position) String() string {
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// A Finding is one diagnostic, detached from the loaded packages so the
// packages can be discarded and findings compared, sorted and serialised.
type Finding struct {
	Analyzer string
	Category string
	Message  string
	URL      string // documentation of the finding, if the analyzer gave one
	Pos      Position
	End      Position // equal to Pos when the analyzer gave no end
	Fixes    []Fix
	Package  string // ID of the package it was found in
}

// A Fix is one suggested fix: edits to apply together or not at all.
type Fix struct {
	Message string
	Edits   []Edit
}

// An Edit replaces the bytes [Pos.Offset, End.Offset) of Pos.File with
// NewText. Pos and End are always in the same file.
type Edit struct {
	Pos, End Position
	NewText  string
}

// Result is what one analysis run found.
type Result struct {
	Findings []Finding
	// Errors are analyzers that failed (returned an error or panicked)
	// on some package. Findings of the other analyzers are still complete.
	Errors []*AnalyzerError

	// parsed holds the hash of each file's content as the analyzers saw
	// it, when the driver parsed it (the streaming path); the zero hash
	// marks a file seen with two contents in one run.
	parsed map[string]fileHash
}

// fileHash is the SHA-256 of a file's content.
type fileHash = [sha256.Size]byte

// addParsed merges the hashes of files parsed for another package.
func (r *Result) addParsed(m map[string]fileHash) {
	if r.parsed == nil {
		r.parsed = make(map[string]fileHash, len(m))
	}
	for f, h := range m {
		if old, ok := r.parsed[f]; ok && old != h {
			h = fileHash{}
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
	Pos Position
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

// Analyze loads the packages and runs the analyzers on them.
//
// If some packages cannot be loaded or type-checked, the error is a
// *LoadError and the result holds the findings of the packages that
// could be analysed: one broken package should not hide what is wrong in
// the others, but callers must still treat the run as failed.
func Analyze(ctx context.Context, cfg *Config) (*Result, error) {
	if cfg.CacheDir != "" && len(cfg.Patterns) > 0 {
		return analyzeCached(ctx, cfg)
	}
	return analyzeUncached(ctx, cfg)
}

func analyzeUncached(ctx context.Context, cfg *Config) (*Result, error) {
	if err := ctx.Err(); err != nil {
		// The cached path falls back here when its listing fails, as it
		// does when cancelled: starting the go command again would be
		// for nothing.
		return &Result{}, err
	}
	s, err := analyzeStreaming(ctx, cfg)
	return s.res, err
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
	collect(res, make(map[string]bool), graph, orig)
	SortFindings(res.Findings)
	sortErrors(res.Errors)
	return res, nil
}

// collect adds the root actions' diagnostics and failures to res. seen
// holds the keys of findings already in res: the same file is analysed in
// more than one package when a pattern names both p and its test variant,
// and it must be reported once.
func collect(res *Result, seen map[string]bool, graph *checker.Graph, orig map[*analysis.Analyzer]*analysis.Analyzer) {
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		a := orig[act.Analyzer]
		ps := newPositions(act.Package)
		for _, d := range act.Diagnostics {
			f := convert(ps, a, d)
			f.Package = act.Package.ID
			key := findingKey(f)
			if seen[key] {
				continue
			}
			seen[key] = true
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
					ae.Pos = Position{File: p.Pos.Filename, Offset: p.Pos.Offset, Line: p.Pos.Line, Column: p.Pos.Column}
				}
			}
			res.Errors = append(res.Errors, ae)
		}
	}
}

func findingKey(f Finding) string {
	return fmt.Sprintf("%s\x00%s\x00%d\x00%d\x00%s\x00%s", f.Analyzer, f.Pos.File, f.Pos.Offset, f.End.Offset, f.Category, f.Message)
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

// SortFindings puts findings in the order every output uses: by file,
// line, column, analyzer, then message, so runs can be diffed.
func SortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(x, y Finding) int {
		return cmp.Or(
			cmp.Compare(x.Pos.File, y.Pos.File),
			cmp.Compare(x.Pos.Line, y.Pos.Line),
			cmp.Compare(x.Pos.Column, y.Pos.Column),
			cmp.Compare(x.Analyzer, y.Analyzer),
			cmp.Compare(x.Message, y.Message),
			cmp.Compare(x.End.Offset, y.End.Offset),
			cmp.Compare(x.Category, y.Category),
		)
	})
}

func convert(ps *positions, a *analysis.Analyzer, d analysis.Diagnostic) Finding {
	f := Finding{
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
		fix := Fix{Message: sf.Message}
		for _, te := range sf.TextEdits {
			end := te.End
			if !end.IsValid() {
				end = te.Pos
			}
			e := Edit{Pos: position(ps.fset, te.Pos), End: position(ps.fset, end), NewText: string(te.NewText)}
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
func position(fset *token.FileSet, pos token.Pos) Position {
	if !pos.IsValid() {
		return Position{}
	}
	tf := fset.File(pos)
	if tf == nil {
		return Position{}
	}
	p := tf.PositionFor(pos, false)
	return Position{File: p.Filename, Offset: p.Offset, Line: p.Line, Column: p.Column}
}
