package main

import (
	"cmp"
	"encoding/xml"
	"io"
	"slices"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// -f checkstyle writes the XML report of the Checkstyle Java linter, which
// CI tools read from any linter (Jenkins' warnings-ng, reviewdog's
// -f=checkstyle, GitLab through converters):
//
//	<?xml version="1.0" encoding="UTF-8"?>
//	<checkstyle version="4.3">
//	  <file name="pkg/c.go">
//	    <error line="12" column="3" severity="warning" message="..." source="ctrllint.tombstone"></error>
//	  </file>
//	</checkstyle>
//
// One <file> per file, sorted by name, relative to the working directory
// when beneath it; its <error>s in the order of the other formats. line
// and column are 1-based (column in bytes), 0 when unknown. severity is
// error, warning, or info for a note (Checkstyle has no "note"). source is
// "ctrllint." and the analyzer; a problem (see output_json.go) is an
// error with source "ctrllint.load" or "ctrllint.internal", in the
// <file name=""> when it has no file. There are no end positions and no
// fixes: the format has neither.
//
// version is the Checkstyle version whose format this is; readers ignore
// it, and 4.3 is what ESLint's checkstyle formatter, the one reviewdog's
// parser cites, writes. encoding/xml escapes the attributes: quotes, "<",
// "&" and ">" as entities, tab, CR and LF as character references (so that
// a parser's attribute normalization keeps them), and characters XML 1.0
// cannot carry (most control characters, invalid UTF-8) as U+FFFD.
type checkstyleReport struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

const checkstyleVersion = "4.3"

// checkstyleFormat is -f checkstyle.
type checkstyleFormat struct{}

func (checkstyleFormat) write(w io.Writer, r report) error {
	return writeCheckstyle(w, r.findings, r.problems, r.rel, r.severity)
}

func writeCheckstyle(w io.Writer, findings []finding.Finding, problems []runProblem, rel func(string) string, severityOf func(string) string) error {
	items, err := reportItems(findings, problems, severityOf)
	if err != nil {
		return err
	}
	report := checkstyleReport{Version: checkstyleVersion}
	byName := make(map[string]int)
	for _, it := range items {
		name := rel(it.pos.File)
		i, ok := byName[name]
		if !ok {
			i = len(report.Files)
			byName[name] = i
			report.Files = append(report.Files, checkstyleFile{Name: name})
		}
		report.Files[i].Errors = append(report.Files[i].Errors, checkstyleError{
			Line:     it.pos.Line,
			Column:   it.pos.Column,
			Severity: checkstyleSeverity(it.severity),
			Message:  it.message,
			Source:   "ctrllint." + it.source(),
		})
	}
	slices.SortStableFunc(report.Files, func(a, b checkstyleFile) int { return cmp.Compare(a.Name, b.Name) })

	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(report); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// checkstyleSeverity is Checkstyle's level of a severity.
func checkstyleSeverity(severity string) string {
	if severity == severityNote {
		return "info"
	}
	return severity // "error", "warning": reportItems checked it
}
