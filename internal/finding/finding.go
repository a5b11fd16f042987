// Package finding is what an analysis run reports, detached from the
// packages it was found in: findings, their positions and suggested
// fixes, the one order and identity every output uses, and the planning
// and writing of fixes. The driver produces findings; the outputs, the
// editor server and the result cache consume them.
package finding

import (
	"cmp"
	"fmt"
	"slices"
)

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

// Sort puts findings in the order every output uses: by file,
// line, column, analyzer, then message, so runs can be diffed.
func Sort(fs []Finding) {
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

// Key identifies a finding: two findings with the same key are one (the
// same diagnostic reached through a package and its test variant, or
// through a cached and a fresh result).
func Key(f Finding) string {
	return fmt.Sprintf("%s\x00%s\x00%d\x00%d\x00%s\x00%s", f.Analyzer, f.Pos.File, f.Pos.Offset, f.End.Offset, f.Category, f.Message)
}

// Dedup drops every finding whose key an earlier one has, in place.
func Dedup(fs []Finding) []Finding {
	seen := make(map[string]bool, len(fs))
	out := fs[:0]
	for _, f := range fs {
		if k := Key(f); !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}
