package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// textFormat is -f text: the findings alone, for a person or an editor;
// problems are on stderr only.
type textFormat struct{}

// write does not report w's errors: -f text never has, and reporting them
// now would change the exit status of runs whose stdout fails.
func (textFormat) write(w io.Writer, r report) error {
	return writeText(w, r.findings, r.rel, r.severity)
}

// writeText prints one finding a line in the file:line:col: form that
// editors, terminals and CI log viewers turn into links. A finding whose
// severity is not the default, warning, says so after the position as
// compilers do ("error: ", "note: "), which editors' problem matchers
// (gcc's) read; a run that configures no severity prints what it always
// has.
func writeText(w io.Writer, findings []finding.Finding, rel func(string) string, severityOf func(string) string) error {
	for _, f := range findings {
		if err := checkSeverity(f.Analyzer, severityOf(f.Analyzer)); err != nil {
			return err // before anything is printed
		}
	}
	for _, f := range findings {
		level := ""
		if sev := severityOf(f.Analyzer); sev != severityWarning {
			level = sev + ": "
		}
		fmt.Fprintf(w, "%s:%d:%d: %s%s (%s)\n", textFile(rel(f.Pos.File)), f.Pos.Line, f.Pos.Column, level, textMessage(f.Message), f.Analyzer)
	}
	return nil
}

// textMessage is the message as printed: as it is, unless that would not
// read back as one finding on one line, or would reach the terminal as
// more than text (a newline, a carriage return, an escape sequence, a
// tab, a bidirectional override: any character strconv.IsPrint refuses),
// or is not UTF-8; then as a Go string literal (strconv.Quote), which
// also is how a message starting with a quote is printed, so that a
// reader can tell the two apart, and one starting as a severity does
// ("note: "), which would read as the finding's.
func textMessage(s string) string {
	if needsQuoting(s) || slices.ContainsFunc(severityLevels, func(l string) bool { return strings.HasPrefix(s, l+": ") }) {
		return strconv.Quote(s)
	}
	return s
}

// textFile is the file name as printed: as textMessage prints a message,
// and quoted also when it holds ": ", which would make the position's end
// ambiguous.
func textFile(s string) string {
	if needsQuoting(s) || strings.Contains(s, ": ") {
		return strconv.Quote(s)
	}
	return s
}

func needsQuoting(s string) bool {
	return strings.HasPrefix(s, `"`) || !utf8.ValidString(s) ||
		strings.ContainsFunc(s, func(r rune) bool { return !strconv.IsPrint(r) })
}
