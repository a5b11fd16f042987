package lsp

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// A mapper converts byte offsets in one version of a file, which is what
// go/token and so ctrllint's findings and fixes count in, into LSP
// positions: a 0-based line and a character offset in UTF-16 code units
// (the encoding every client must support).
type mapper struct {
	content []byte
	lines   []int // byte offset at which each line starts
}

func newMapper(content []byte) *mapper {
	lines := []int{0}
	for i, b := range content {
		// LSP ends lines at \n, \r\n and a lone \r.
		if b == '\n' || b == '\r' && (i+1 == len(content) || content[i+1] != '\n') {
			lines = append(lines, i+1)
		}
	}
	return &mapper{content: content, lines: lines}
}

// position converts a byte offset into an LSP position.
func (m *mapper) position(offset int) (protocol.Position, error) {
	if offset < 0 || offset > len(m.content) {
		return protocol.Position{}, fmt.Errorf("offset %d is outside the file (%d bytes)", offset, len(m.content))
	}
	line := sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > offset }) - 1
	char := 0
	for b := m.content[m.lines[line]:offset]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		if n := utf16.RuneLen(r); n > 0 {
			char += n
		} else {
			char++ // not reachable for decoded runes; count as one unit
		}
		b = b[size:]
	}
	return protocol.Position{Line: uint32(line), Character: uint32(char)}, nil
}

// rangeOf converts the byte range [start, end) into an LSP range.
func (m *mapper) rangeOf(start, end int) (protocol.Range, error) {
	s, err := m.position(start)
	if err != nil {
		return protocol.Range{}, err
	}
	e, err := m.position(end)
	if err != nil {
		return protocol.Range{}, err
	}
	return protocol.Range{Start: s, End: e}, nil
}

// diagnostic converts a finding located in the file m maps.
func diagnostic(f finding.Finding, m *mapper, docURL, severity string) (protocol.Diagnostic, error) {
	rng, err := m.rangeOf(f.Pos.Offset, f.End.Offset)
	if err != nil {
		return protocol.Diagnostic{}, err
	}
	d := protocol.Diagnostic{
		Range:    rng,
		Severity: diagnosticSeverity(severity),
		Code:     protocol.String(f.Analyzer),
		Source:   protocol.NewOptional(source),
		Message:  protocol.String(f.Message),
	}
	if docURL != "" {
		d.CodeDescription = protocol.CodeDescription{Href: uri.URI(docURL)}
	}
	return d, nil
}

// target is a file a fix may edit: the URI the client knows it by and the
// content the fix's offsets refer to.
type target struct {
	uri    uri.URI
	mapper *mapper
}

// quickFix converts a suggested fix for diag into a code action whose
// edits give what `ctrllint -fix` writes: the fix's edits (a fix may edit
// several places, several files: add an import, then a statement), then
// gofmt, which, among other things, puts an added import in order. The
// code action replaces the lines that change. targets resolves the files;
// a fix that edits an unknown file, or conflicts with itself, fails.
func quickFix(fix finding.Fix, analyzer string, diag protocol.Diagnostic, targets func(file string) (target, bool)) (*protocol.CodeAction, error) {
	read := func(file string) ([]byte, error) {
		t, ok := targets(file)
		if !ok {
			return nil, fmt.Errorf("%s was not analysed with the package", file)
		}
		return t.mapper.content, nil
	}
	plan := finding.PlanFixes([]finding.Finding{{Analyzer: analyzer, Fixes: []finding.Fix{fix}}}, finding.PlanOptions{ReadFile: read})
	if len(plan.Skipped) > 0 {
		return nil, errors.New(plan.Skipped[0].Reason)
	}
	if len(plan.Files) == 0 {
		return nil, errors.New("the fix changes nothing")
	}
	changes := make(map[uri.URI][]protocol.TextEdit)
	for file, content := range plan.Files {
		t, _ := targets(file)
		for _, e := range lineEdits(t.mapper.content, content) {
			rng, err := t.mapper.rangeOf(e.start, e.end)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", file, err)
			}
			changes[t.uri] = append(changes[t.uri], protocol.TextEdit{Range: rng, NewText: e.text})
		}
	}
	title := fix.Message
	if title == "" {
		title = "Apply the fix suggested by " + analyzer
	}
	kind := protocol.CodeActionKindQuickFix
	return &protocol.CodeAction{
		Title:       title,
		Kind:        &kind,
		Diagnostics: []protocol.Diagnostic{diag},
		Edit:        &protocol.WorkspaceEdit{Changes: changes},
	}, nil
}

// byteEdit replaces the bytes [start, end) with text.
type byteEdit struct {
	start, end int
	text       string
}

// maxDiffCells bounds the work lineEdits does to find the lines that
// changed; beyond it, it replaces everything between the first and last
// changed line at once.
const maxDiffCells = 1 << 22

// lineEdits returns edits that turn old into new, one for each run of
// changed lines, in order, without overlaps. Unchanged lines are matched
// by a longest common subsequence of the lines between the first and the
// last that differ.
func lineEdits(old, new []byte) []byteEdit {
	a, b := splitLines(old), splitLines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	offsets := make([]int, len(a)+1) // offsets[i]: where old line i starts
	for i, l := range a {
		offsets[i+1] = offsets[i] + len(l)
	}
	var edits []byteEdit
	// replace turns old lines [i0, i1) into new lines [j0, j1).
	replace := func(i0, i1, j0, j1 int) {
		if i0 < i1 || j0 < j1 {
			edits = append(edits, byteEdit{offsets[i0], offsets[i1], strings.Join(b[j0:j1], "")})
		}
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(am), len(bm)
	if n*m > maxDiffCells {
		replace(pre, pre+n, pre, pre+m)
		return edits
	}
	// lcs[i*(m+1)+j] is the length of the longest common subsequence of
	// am[i:] and bm[j:].
	lcs := make([]int32, (n+1)*(m+1))
	at := func(i, j int) int32 { return lcs[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case am[i] == bm[j]:
				lcs[i*(m+1)+j] = at(i+1, j+1) + 1
			default:
				lcs[i*(m+1)+j] = max(at(i+1, j), at(i, j+1))
			}
		}
	}
	i, j, hi, hj := 0, 0, 0, 0 // hi, hj: where the current run of changes starts
	for i < n || j < m {
		switch {
		case i < n && j < m && am[i] == bm[j]:
			replace(pre+hi, pre+i, pre+hj, pre+j)
			i, j = i+1, j+1
			hi, hj = i, j
		case j < m && (i == n || at(i, j+1) >= at(i+1, j)):
			j++ // bm[j] is inserted
		default:
			i++ // am[i] is deleted
		}
	}
	replace(pre+hi, pre+n, pre+hj, pre+m)
	return edits
}

// splitLines splits s after each newline.
func splitLines(s []byte) []string {
	var lines []string
	for len(s) > 0 {
		n := bytes.IndexByte(s, '\n') + 1
		if n == 0 {
			n = len(s)
		}
		lines = append(lines, string(s[:n]))
		s = s[n:]
	}
	return lines
}

// before reports whether position a comes before b.
func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// touches reports whether two ranges overlap or meet: a cursor at either
// end of a diagnostic asks for its fixes.
func touches(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// wantsQuickFix reports whether a code action request restricted to the
// kinds in only (none: any kind) accepts quick fixes. Kinds are
// hierarchical: "quickfix" accepts "quickfix" and "quickfix.x".
func wantsQuickFix(only []protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, k := range only {
		if k == protocol.CodeActionKindQuickFix || k == "" {
			return true
		}
	}
	return false
}

// diagnosticSeverity maps a configured severity to the protocol's: a note
// is Information (Hint is for what editors may hide, such as unused code).
func diagnosticSeverity(severity string) protocol.DiagnosticSeverity {
	switch severity {
	case "error":
		return protocol.DiagnosticSeverityError
	case "note":
		return protocol.DiagnosticSeverityInformation
	}
	return protocol.DiagnosticSeverityWarning
}
