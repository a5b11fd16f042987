package main

import (
	"encoding/json"
	"io"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// The -f json output is an interface other tools build on; fields may be
// added but never renamed or removed. It is an array (empty: []) of
//
//	{
//	  "analyzer":  "tombstone",   // analyzer name, as in -list
//	  "category":  "",            // analyzer-defined sub-kind; may be ""
//	  "message":   "...",
//	  "file":      "pkg/c.go",    // relative to the working directory when beneath it, else absolute
//	  "line":      12,            // 1-based
//	  "column":    3,             // 1-based, in bytes (as go vet)
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
type jsonFinding struct {
	Analyzer  string    `json:"analyzer"`
	Category  string    `json:"category"`
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

func writeJSON(w io.Writer, findings []finding.Finding, rel func(string) string) error {
	out := make([]jsonFinding, 0, len(findings))
	for _, f := range findings {
		jf := jsonFinding{
			Analyzer:  f.Analyzer,
			Category:  f.Category,
			Message:   f.Message,
			File:      rel(f.Pos.File),
			Line:      f.Pos.Line,
			Column:    f.Pos.Column,
			EndLine:   f.End.Line,
			EndColumn: f.End.Column,
			Fixes:     []jsonFix{},
		}
		for _, fix := range f.Fixes {
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
