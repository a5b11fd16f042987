package main

import (
	"fmt"
	"io"

	"github.com/ctrllint/ctrllint/internal/driver"
)

// writeText prints one finding a line in the file:line:col: form that
// editors, terminals and CI log viewers turn into links.
func writeText(w io.Writer, findings []driver.Finding, rel func(string) string) {
	for _, f := range findings {
		fmt.Fprintf(w, "%s:%d:%d: %s (%s)\n", rel(f.Pos.File), f.Pos.Line, f.Pos.Column, f.Message, f.Analyzer)
	}
}
