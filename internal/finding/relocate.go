package finding

import (
	"bytes"
	"go/scanner"
	"go/token"
	"slices"
	"sort"
	"strings"
)

// Relocate returns f as it reads in the files the plan writes: its
// position, its end and the edits of its fixes moved from the content
// analysed to where the same code is in the new content, with lines and
// columns counted there. A finding left unfixed is reported after the
// fixes are written, and a position of the old content would point a
// reader (and an editor, and code scanning) at the wrong line.
//
// A fix with an edit that overlaps an edit the plan applies is dropped:
// it was skipped for conflicting with it, and the code it would replace
// is gone. Files the plan does not write keep their positions.
func (p *FixPlan) Relocate(f Finding) Finding {
	f.Pos = p.position(f.Pos)
	f.End = p.position(f.End)
	var fixes []Fix
	for _, fix := range f.Fixes {
		if slices.ContainsFunc(fix.Edits, p.conflicts) {
			continue
		}
		moved := Fix{Message: fix.Message, Edits: make([]Edit, len(fix.Edits))}
		for i, e := range fix.Edits {
			moved.Edits[i] = Edit{Pos: p.position(e.Pos), End: p.position(e.End), NewText: e.NewText}
		}
		fixes = append(fixes, moved)
	}
	f.Fixes = fixes
	return f
}

func (p *FixPlan) position(pos Position) Position {
	r := p.moved[pos.File]
	if r == nil {
		return pos
	}
	return r.position(pos)
}

func (p *FixPlan) conflicts(e Edit) bool {
	r := p.moved[e.Pos.File]
	return r != nil && slices.ContainsFunc(r.edits, func(a edit) bool {
		return a != edit{e.Pos.Offset, e.End.Offset, e.NewText} && overlaps(a.start, a.end, e.Pos.Offset, e.End.Offset)
	})
}

// relocation maps the byte offsets of a file as analysed to the file as
// written: through the edits applied, exactly, then through gofmt.
type relocation struct {
	edits   []edit // applied, by offset
	spliced []byte // the content analysed with the edits applied
	written []byte // spliced, gofmt'ed

	// Built on first use: spliced's tokens, written's, the token of
	// written each token of spliced is (-1: none), and where written's
	// lines start.
	from, to   []tok
	match      []int
	lineStarts []int
}

func (r *relocation) position(pos Position) Position {
	off := r.throughFormat(throughEdits(r.edits, pos.Offset))
	if r.lineStarts == nil {
		r.lineStarts = []int{0}
		for i, c := range r.written {
			if c == '\n' {
				r.lineStarts = append(r.lineStarts, i+1)
			}
		}
	}
	line := sort.SearchInts(r.lineStarts, off+1) // lines starting at or before off
	return Position{File: pos.File, Offset: off, Line: line, Column: off - r.lineStarts[line-1] + 1}
}

// throughEdits moves off by what the edits before it inserted and
// deleted. An insertion at off goes before the code there, as build puts
// it; an offset inside a replaced range moves to the replacement's start.
func throughEdits(es []edit, off int) int {
	shift := 0
	for _, e := range es {
		switch {
		case e.end <= off:
			shift += len(e.text) - (e.end - e.start)
		case e.start < off:
			return e.start + shift
		default:
			return off + shift
		}
	}
	return off + shift
}

// throughFormat moves an offset of spliced to the same code in written.
// gofmt moves code by changing white space, which the tokens of the two
// contents skip; the few tokens it drops, adds or reorders (parentheses
// around an if's condition, a trailing comma, a duplicate or unsorted
// import, a reflowed doc comment) are matched by no token, and an offset
// in them moves to the next token matched.
func (r *relocation) throughFormat(off int) int {
	if bytes.Equal(r.spliced, r.written) {
		return off
	}
	if r.match == nil {
		r.from, r.to = tokens(r.spliced), tokens(r.written)
		r.match = align(r.from, r.to)
	}
	// The last token starting at or before off.
	k := sort.Search(len(r.from), func(i int) bool { return r.from[i].off > off }) - 1
	if k >= 0 && off <= r.from[k].end && r.match[k] >= 0 {
		t := r.to[r.match[k]]
		return min(t.off+off-r.from[k].off, t.end)
	}
	for i := k + 1; i < len(r.from); i++ {
		if m := r.match[i]; m >= 0 {
			return r.to[m].off
		}
	}
	return len(r.written)
}

// tok is a token of Go source: where it is and what it reads, white
// space inside a comment left out (gofmt re-indents comments).
type tok struct {
	off, end int
	key      string
}

// tokens are src's tokens but semicolons, which gofmt adds and removes
// as it breaks lines.
func tokens(src []byte) []tok {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", -1, len(src)), src, func(token.Position, string) {}, scanner.ScanComments)
	var out []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			return out
		}
		if t == token.SEMICOLON {
			continue
		}
		off := fset.Position(pos).Offset
		text := lit
		if text == "" {
			text = t.String()
		}
		key := t.String() + " " + text
		if t == token.COMMENT {
			key = t.String() + " " + strings.Join(strings.Fields(text), "")
		}
		out = append(out, tok{off: off, end: min(off+len(text), len(src)), key: key})
	}
}

// Resynchronising after tokens that differ looks this far ahead, in
// tokens skipped on either side, for this many tokens that agree.
const (
	resyncWindow = 64
	resyncRun    = 4
)

// align pairs the tokens of a with the same tokens of b, in order:
// match[i] is the index in b of a[i], or -1.
func align(a, b []tok) []int {
	match := make([]int, len(a))
	for i := range match {
		match[i] = -1
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i].key == b[j].key {
			match[i] = j
			i, j = i+1, j+1
			continue
		}
		di, dj, ok := resync(a[i:], b[j:])
		if !ok {
			break
		}
		i, j = i+di, j+dj
	}
	// What resync could not reach, from the end back.
	for ii, jj := len(a)-1, len(b)-1; ii >= i && jj >= j && a[ii].key == b[jj].key; ii, jj = ii-1, jj-1 {
		match[ii] = jj
	}
	return match
}

// resync returns how many tokens of a and of b to skip, fewest in all
// first, for the two to agree again on their next resyncRun tokens (or
// on all that is left of both).
func resync(a, b []tok) (int, int, bool) {
	for d := 1; d <= resyncWindow; d++ {
		for di := 0; di <= d; di++ {
			dj := d - di
			if di > len(a) || dj > len(b) {
				continue
			}
			if agree(a[di:], b[dj:]) {
				return di, dj, true
			}
		}
	}
	return 0, 0, false
}

func agree(a, b []tok) bool {
	n := min(resyncRun, len(a), len(b))
	if n == 0 || (n < resyncRun && len(a) != len(b)) {
		return false
	}
	for k := range n {
		if a[k].key != b[k].key {
			return false
		}
	}
	return true
}
