package main

import (
	"encoding/json"
	"io"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// The -f json output is an interface other tools build on; fields may be
// added but never renamed or removed. It is an array (empty: [] when
// clean) of
//
//	{
//	  "analyzer":  "tombstone",   // analyzer name, as in -list; "ctrllint" for a problem
//	  "category":  "",            // analyzer-defined sub-kind, may be ""; a problem's kind
//	  "severity":  "warning",     // "error", "warning" or "note"; a problem is an "error"
//	  "message":   "...",
//	  "file":      "pkg/c.go",    // relative to the working directory when beneath it, else absolute; "" if unknown
//	  "line":      12,            // 1-based; 0 if unknown
//	  "column":    3,             // 1-based, in bytes (as go vet); 0 if unknown
//	  "endLine":   12,            // equal to line/column when the finding is a point
//	  "endColumn": 9,
//	  "fixes": [                  // always present, possibly empty; -fix applies the first
//	    {
//	      "message": "...",
//	      "edits": [              // replace bytes [start, end) of file with newText
//	        {"file": "pkg/c.go", "start": 120, "end": 126, "newText": "..."}
//	      ]
//	    }
//	  ]
//	}
//
// sorted by file, line, column, analyzer and message.
//
// A run whose findings are incomplete says so in the array too, not only
// on stderr and in the exit status 2: a consumer that reads stdout alone
// must not take "[]" from a package that does not compile for "clean".
// Each problem is an element with analyzer "ctrllint" (which tells it
// from a finding: a finding's severity may be "error" too), severity
// "error", no fixes, its file, line and column when known (else "" and
// 0, and it sorts first), and category
//
//   - "load": a package that could not be loaded or type-checked (the
//     loader's message), so no analyzer ran on it;
//   - "internal": an analyzer that failed on a package ("internal error:
//     analyzer NAME failed on package PATH: ..."), at the code it was
//     analysing when it said so, and its findings there are missing.
//
// staticcheck's -f json (honnef.co/go/tools/lintcmd) does the same: a
// package's errors are diagnostics of severity "error" whose "code" is
// "compile" ("config" for a parse error). There the code is the check's
// name and also the only kind a diagnostic has, so a pseudo-check name
// is all it can use; ours has an analyzer and a category, so a problem
// names the tool as its analyzer (no analyzer may be called "ctrllint":
// TestProblemSourcesAreNoAnalyzers) and its kind as its category, and
// every field keeps the meaning it had. staticcheck writes one object a
// line; ours stays the one array it was documented to be.
type jsonFinding struct {
	Analyzer  string    `json:"analyzer"`
	Category  string    `json:"category"`
	Severity  string    `json:"severity"`
	Message   string    `json:"message"`
	File      string    `json:"file"`
	Line      int       `json:"line"`
	Column    int       `json:"column"`
	EndLine   int       `json:"endLine"`
	EndColumn int       `json:"endColumn"`
	Fixes     []jsonFix `json:"fixes"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	File    string `json:"file"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	NewText string `json:"newText"`
}

// jsonFormat is -f json.
type jsonFormat struct{}

func (jsonFormat) write(w io.Writer, r report) error {
	return writeJSON(w, r.findings, r.problems, r.rel, r.severity)
}

func writeJSON(w io.Writer, findings []finding.Finding, problems []runProblem, rel func(string) string, severityOf func(string) string) error {
	items, err := reportItems(findings, problems, severityOf)
	if err != nil {
		return err
	}
	out := make([]jsonFinding, 0, len(items))
	for _, it := range items {
		jf := jsonFinding{
			Analyzer:  it.analyzer,
			Category:  it.category,
			Severity:  it.severity,
			Message:   it.message,
			File:      rel(it.pos.File),
			Line:      it.pos.Line,
			Column:    it.pos.Column,
			EndLine:   it.end.Line,
			EndColumn: it.end.Column,
			Fixes:     []jsonFix{},
		}
		for _, fix := range it.fixes {
			jx := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
			for _, e := range fix.Edits {
				jx.Edits = append(jx.Edits, jsonEdit{File: rel(e.Pos.File), Start: e.Pos.Offset, End: e.End.Offset, NewText: e.NewText})
			}
			jf.Fixes = append(jf.Fixes, jx)
		}
		out = append(out, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
