package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// A format writes a run's report on stdout. Each is a type in its own
// output_NAME.go and an entry in outputs; nothing else names it.
type format interface {
	write(w io.Writer, r report) error
}

// outputs are the values of -f and what each writes, in the order the
// usage lists them. The usage, the error for an unknown format and the
// flags table of docs/README.md are all checked against it
// (TestFormatList), as is that each format writes something of its own.
var outputs = []struct {
	name string
	format
}{
	{"text", textFormat{}},
	{"json", jsonFormat{}},
	{"sarif", sarifFormat{}},
	{"github", githubFormat{}},
	{"checkstyle", checkstyleFormat{}},
}

// formats are the names of outputs.
var formats = func() []string {
	names := make([]string, len(outputs))
	for i, o := range outputs {
		names[i] = o.name
	}
	return names
}()

// formatList is formats as a sentence lists them: "a, b or c".
func formatList() string {
	return strings.Join(formats[:len(formats)-1], ", ") + " or " + formats[len(formats)-1]
}

// What the machine formats write for a problem in place of an analyzer's
// name and category. No analyzer may be named problemSource or a category
// (TestProblemSourcesAreNoAnalyzers): checkstyle's source and GitHub's
// title would no longer tell the two apart.
const (
	problemSource = "ctrllint"
	// categoryLoad: a package that could not be loaded or type-checked, so
	// that no analyzer ran on it.
	categoryLoad = "load"
	// categoryInternal: an analyzer that failed (returned an error or
	// panicked) on a package, so that its findings there are missing.
	categoryInternal = "internal"
)

// runProblem is one reason a run's findings are incomplete.
type runProblem struct {
	category string
	// pos is where, when known: File absolute or "", Line and Column 0
	// when unknown.
	pos finding.Position
	msg string // without the position
	// text is the line stderr and SARIF's notifications print, with the
	// position, paths relative as in the findings.
	text  string
	stack string // an analyzer's panic stack, for CTRLLINT_DEBUG
}

// collectProblems turns the driver's load problems and analyzer failures
// into runProblems, in the order stderr has always printed them: load
// problems first, then failures in the driver's order.
func collectProblems(loadErr *driver.LoadError, failed []*driver.AnalyzerError, rel func(string) string) []runProblem {
	var out []runProblem
	if loadErr != nil {
		for _, p := range loadErr.Problems {
			at := finding.Position{File: p.File, Line: p.Line, Column: p.Column}
			p.File = rel(p.File)
			out = append(out, runProblem{category: categoryLoad, pos: at, msg: p.Msg, text: p.String()})
		}
	}
	for _, e := range failed {
		at := e.Pos
		bare := *e
		bare.Pos = finding.Position{}
		shown := *e
		shown.Pos.File = rel(e.Pos.File)
		out = append(out, runProblem{category: categoryInternal, pos: at, msg: bare.Error(), text: shown.Error(), stack: e.Stack})
	}
	return out
}

// reportItem is a finding or a problem, as the machine formats that carry
// both (json, github, checkstyle) write it.
type reportItem struct {
	analyzer string // problemSource for a problem
	category string
	message  string
	severity string
	pos, end finding.Position // File absolute, or "" for a problem without one
	fixes    []finding.Fix
}

// reportItems merges findings and problems into the one order every
// format writes: by file (absolute, the driver's order), line, column,
// analyzer and message, with findings kept in the driver's order among
// equals. A problem without a position sorts first. severityOf gives each
// analyzer's severity; a problem's is "error".
func reportItems(findings []finding.Finding, problems []runProblem, severityOf func(string) string) ([]reportItem, error) {
	items := make([]reportItem, 0, len(findings)+len(problems))
	for _, f := range findings {
		sev := severityOf(f.Analyzer)
		if err := checkSeverity(f.Analyzer, sev); err != nil {
			return nil, err
		}
		items = append(items, reportItem{analyzer: f.Analyzer, category: f.Category, message: f.Message,
			severity: sev, pos: f.Pos, end: f.End, fixes: f.Fixes})
	}
	for _, p := range problems {
		items = append(items, reportItem{analyzer: problemSource, category: p.category, message: p.msg,
			severity: severityError, pos: p.pos, end: p.pos})
	}
	slices.SortStableFunc(items, func(x, y reportItem) int {
		return cmp.Or(
			cmp.Compare(x.pos.File, y.pos.File),
			cmp.Compare(x.pos.Line, y.pos.Line),
			cmp.Compare(x.pos.Column, y.pos.Column),
			cmp.Compare(x.analyzer, y.analyzer),
			cmp.Compare(x.message, y.message),
		)
	})
	return items, nil
}

// source is what a GitHub title and a checkstyle source name an item by:
// the analyzer, or a problem's category.
func (it reportItem) source() string {
	if it.analyzer == problemSource {
		return it.category
	}
	return it.analyzer
}

// validUTF8 is s with each byte that is not part of valid UTF-8 replaced
// by U+FFFD, as encoding/json writes it.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string([]rune(s))
}

// report is what a run has to say, for writeReport to write in any format.
type report struct {
	findings     []finding.Finding
	problems     []runProblem
	problemLines []string // the problems as printed on stderr
	goneNote     string   // baseline entries that no longer occur, or ""
	rel          func(string) string
	severity     func(analyzer string) string
	baseline     *baselineRun // nil without -baseline

	// What SARIF's log describes besides the results.
	suite   suite
	enabled []*analysis.Analyzer
	wd      string
}

// writeReport writes r to w in the format named name, one of formats.
func writeReport(w io.Writer, name string, r report) error {
	for _, o := range outputs {
		if o.name == name {
			return o.write(w, r)
		}
	}
	return fmt.Errorf("unknown output format %q", name) // parseFlags has refused it
}
