package main

import (
	"bufio"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// githubFormat is -f github.
type githubFormat struct{}

func (githubFormat) write(w io.Writer, r report) error {
	return writeGitHub(w, r.findings, r.problems, r.rel, r.severity)
}

// -f github writes GitHub Actions workflow commands, one line each, which
// the runner turns into annotations on the pull request's diff:
//
//	::warning file=pkg/c.go,line=12,col=3,endLine=12,endColumn=9,title=ctrllint (tombstone)::MESSAGE
//
// The command is the severity (error, warning, or notice for a note).
// col and endColumn (bytes, as in the other formats) are written only when
// the finding starts and ends on one line, the only case in which GitHub
// takes columns. A problem (see output_json.go) is an ::error titled
// "ctrllint (load)" or "ctrllint (internal)", with the properties of its
// position that are known. Nothing else is written on stdout: every line
// is a command.
//
// file is relative to the working directory, with "/" separators: the
// runner reads a relative file against the repository's root (the
// workspace), so the run must be from the root (-C moves the base). An
// absolute path, written for a file outside the working directory, the
// runner makes relative to the workspace itself.
//
// The escaping is the runner's (actions/runner ActionCommand.cs, which
// unescapes in a fixed order ending with %25): in the message, "%", CR
// and LF become %25, %0D and %0A; in a property value ":" and "," also
// become %3A and %2C, since they end a command's properties and a
// property. No other character needs it, and without it a message could
// end the line and start a command of its own (::add-mask::, ::stop-commands::).
// Each byte of invalid UTF-8 is written as U+FFFD, as in JSON.
func writeGitHub(w io.Writer, findings []finding.Finding, problems []runProblem, rel func(string) string, severityOf func(string) string) error {
	items, err := reportItems(findings, problems, severityOf)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, it := range items {
		var props []string
		add := func(k, v string) { props = append(props, k+"="+githubProperty(v)) }
		if it.pos.File != "" {
			add("file", filepath.ToSlash(rel(it.pos.File)))
			if it.pos.Line > 0 {
				add("line", strconv.Itoa(it.pos.Line))
				oneLine := it.end.Line == it.pos.Line
				if oneLine && it.pos.Column > 0 {
					add("col", strconv.Itoa(it.pos.Column))
				}
				if it.end.Line >= it.pos.Line {
					add("endLine", strconv.Itoa(it.end.Line))
				}
				if oneLine && it.pos.Column > 0 && it.end.Column >= it.pos.Column {
					add("endColumn", strconv.Itoa(it.end.Column))
				}
			}
		}
		add("title", "ctrllint ("+it.source()+")")
		bw.WriteString("::" + githubLevel(it.severity) + " " + strings.Join(props, ",") + "::" + githubData(it.message) + "\n")
	}
	return bw.Flush()
}

// githubLevel is the workflow command of a severity.
func githubLevel(severity string) string {
	if severity == severityNote {
		return "notice"
	}
	return severity // "error", "warning": reportItems checked it
}

var (
	githubDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func githubData(s string) string {
	return githubDataEscaper.Replace(validUTF8(s))
}

func githubProperty(s string) string {
	return githubPropertyEscaper.Replace(validUTF8(s))
}
