package driver

import (
	"bytes"
	"crypto/sha256"
	"go/token"
	"os"
	"slices"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// positions converts one package's token positions into Positions.
//
// A package that imports "C" is compiled, parsed and analysed from the files
// cmd/cgo writes into the go command's cache, which map back to the user's
// files through //line directives. Positions in those files are reported in
// the user's file, at the line and column the directives name, so that
// every front end (and go vet, whose positions follow //line) points at
// code the user can open. All other //line directives are ignored: fixes
// must address the real file, and findings should point where fixes do.
type positions struct {
	fset *token.FileSet
	cgo  map[string]bool   // the files cmd/cgo wrote: compiled, but not the package's own
	own  map[string]bool   // the package's own Go files (go/packages lists its cgo files there)
	src  map[string][]byte // files read so far; nil content when unreadable
}

func newPositions(pkg *packages.Package) *positions {
	ps := &positions{fset: pkg.Fset}
	for _, f := range pkg.CompiledGoFiles {
		if !slices.Contains(pkg.GoFiles, f) {
			if ps.cgo == nil {
				ps.cgo, ps.own, ps.src = make(map[string]bool), make(map[string]bool), make(map[string][]byte)
				for _, g := range pkg.GoFiles {
					ps.own[g] = true
				}
			}
			ps.cgo[f] = true
		}
	}
	return ps
}

// at is pos as reported: in the user's file for a position in cgo's
// rewrite of it, else in the file parsed.
func (ps *positions) at(pos token.Pos) finding.Position {
	p, _ := ps.mapped(pos)
	return p
}

// mapped returns pos as reported, and whether it was mapped from a file
// cgo wrote to the user's file.
func (ps *positions) mapped(pos token.Pos) (finding.Position, bool) {
	if !pos.IsValid() {
		return finding.Position{}, false
	}
	tf := ps.fset.File(pos)
	if tf == nil {
		return finding.Position{}, false
	}
	raw := tf.PositionFor(pos, false)
	out := finding.Position{File: raw.Filename, Offset: raw.Offset, Line: raw.Line, Column: raw.Column}
	if !ps.cgo[raw.Filename] {
		return out, false
	}
	adj := tf.PositionFor(pos, true)
	if !ps.own[adj.Filename] || adj.Line < 1 || adj.Column < 1 {
		return out, false // cgo's own declarations: no user's line to point at
	}
	start, ok := lineStart(ps.read(adj.Filename), adj.Line)
	if !ok {
		return out, false
	}
	return finding.Position{File: adj.Filename, Offset: start + adj.Column - 1, Line: adj.Line, Column: adj.Column}, true
}

// edit maps an edit in a file cgo wrote to the user's file. It succeeds
// only when the lines the edit spans read the same in both (cgo rewrites
// C.name references, and an edit there has no faithful counterpart).
func (ps *positions) edit(e finding.Edit, pos, end token.Pos) (finding.Edit, bool) {
	mp, ok1 := ps.mapped(pos)
	me, ok2 := ps.mapped(end)
	if !ok1 || !ok2 || mp.File != me.File || me.Line-mp.Line != e.End.Line-e.Pos.Line {
		return finding.Edit{}, false
	}
	for i := 0; i <= e.End.Line-e.Pos.Line; i++ {
		a, okA := line(ps.read(e.Pos.File), e.Pos.Line+i)
		b, okB := line(ps.read(mp.File), mp.Line+i)
		if !okA || !okB || !bytes.Equal(a, b) {
			return finding.Edit{}, false
		}
	}
	return finding.Edit{Pos: mp, End: me, NewText: e.NewText}, true
}

func (ps *positions) read(name string) []byte {
	b, ok := ps.src[name]
	if !ok {
		b, _ = os.ReadFile(name)
		ps.src[name] = b
	}
	return b
}

// digests returns the hash of each user's file read to map positions and
// edits to it: the content its findings' offsets refer to.
func (ps *positions) digests() map[string]load.FileHash {
	m := make(map[string]load.FileHash, len(ps.src))
	for name, b := range ps.src {
		if b != nil {
			m[name] = sha256.Sum256(b)
		}
	}
	return m
}

// lineStart is the offset at which the 1-based line n of src starts.
func lineStart(src []byte, n int) (int, bool) {
	off := 0
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src[off:], '\n')
		if j < 0 {
			return 0, false
		}
		off += j + 1
	}
	return off, src != nil
}

// line is the 1-based line n of src, without its newline.
func line(src []byte, n int) ([]byte, bool) {
	start, ok := lineStart(src, n)
	if !ok {
		return nil, false
	}
	rest := src[start:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return rest, true
}
