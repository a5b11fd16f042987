package newcode

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A FileDiff is what a unified diff says of the new version of one file.
type FileDiff struct {
	// Path is the file's path in the new version, slash-separated and
	// relative to the repository's top level.
	Path string
	// Added are the lines of the new version that the diff adds, in
	// order, as inclusive 1-based ranges.
	Added []Span
	// Removed are the places where lines were removed: n means after line
	// n of the new version (0: before its first line). Sorted, no
	// duplicates.
	Removed []int
}

// A Span is the lines From to To, inclusive, 1-based.
type Span struct{ From, To int }

// hunkHeader matches "@@ -a[,b] +c[,d] @@"; a missing count is 1.
var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// ParseDiff reads the output of git diff run with --src-prefix=a/
// --dst-prefix=b/ (with any number of context lines) and returns the
// files it adds lines to or removes lines from, in the diff's order.
// Deleted files, binary files, and files that are only renamed or only
// change mode have no hunks and are left out.
//
// Hunk bodies are read by the counts in their headers, not by their
// first character alone, so that an added line that starts with "++ "
// or a removed one that starts with "-- " is not taken for the next
// file's header.
func ParseDiff(r io.Reader) ([]FileDiff, error) {
	br := bufio.NewReader(r)
	var (
		files            []*FileDiff
		cur              *FileDiff // nil: the current file has no new version (deleted), or no header yet
		inFile           bool      // a "diff --git" line was seen
		oldLeft, newLeft int       // lines of the current hunk still to read
		newLine          int       // the new version's line number of the next line read
	)
	for lineNo := 1; ; lineNo++ {
		raw, err := br.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if raw == "" {
			break // end of input
		}
		line := strings.TrimSuffix(raw, "\n")
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case strings.HasPrefix(line, "+") && newLeft > 0:
				newLeft--
				cur.addLine(newLine)
				newLine++
			case strings.HasPrefix(line, "-") && oldLeft > 0:
				oldLeft--
				cur.removeAfter(newLine - 1)
			case strings.HasPrefix(line, " ") && oldLeft > 0 && newLeft > 0:
				oldLeft--
				newLeft--
				newLine++
			case strings.HasPrefix(line, `\`):
				// "\ No newline at end of file": about the line before,
				// not a line of either version.
			default:
				return nil, fmt.Errorf("diff line %d: hunk ends early (%d old and %d new lines missing): %q", lineNo, oldLeft, newLeft, line)
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur, inFile = nil, true
		case strings.HasPrefix(line, "+++ ") && inFile:
			path, err := newPath(line[len("+++ "):])
			if err != nil {
				return nil, fmt.Errorf("diff line %d: %v", lineNo, err)
			}
			if path != "" { // "" is /dev/null: a deleted file
				cur = &FileDiff{Path: path}
				files = append(files, cur)
			}
		case strings.HasPrefix(line, "@@ "):
			m := hunkHeader.FindStringSubmatch(line)
			if m == nil || !inFile {
				return nil, fmt.Errorf("diff line %d: unexpected hunk header %q", lineNo, line)
			}
			oldLeft, newLeft = count(m[2]), count(m[4])
			if cur == nil && newLeft > 0 {
				return nil, fmt.Errorf("diff line %d: hunk adds lines to a file without a +++ header: %q", lineNo, line)
			}
			// A new side "+c,0" (lines removed only) is placed after
			// line c; a non-empty one starts at line c.
			newLine, _ = strconv.Atoi(m[3])
			if newLeft == 0 {
				newLine++
			}
		default:
			// Extended headers (index, mode, rename, similarity), "---",
			// "Binary files ... differ", and "\ No newline at end of
			// file" after a hunk's last line: nothing about which lines
			// of the new version are new.
		}
	}
	if oldLeft > 0 || newLeft > 0 {
		return nil, fmt.Errorf("diff ends inside a hunk (%d old and %d new lines missing)", oldLeft, newLeft)
	}
	out := make([]FileDiff, len(files))
	for i, f := range files {
		f.normalize()
		out[i] = *f
	}
	return out, nil
}

// count is a hunk header's line count: absent means 1.
func count(s string) int {
	if s == "" {
		return 1
	}
	n, _ := strconv.Atoi(s) // the pattern admits digits only
	return n
}

// newPath is the path named by a "+++ " line: "" for /dev/null. Git
// quotes names with unusual characters C-style, and ends an unquoted name
// that contains a space with a tab (for GNU patch); a tab in a name is
// always quoted.
func newPath(s string) (string, error) {
	if s == "/dev/null" {
		return "", nil
	}
	if strings.HasPrefix(s, `"`) {
		end := closingQuote(s)
		if end < 0 {
			return "", fmt.Errorf("unterminated quoted file name %s", s)
		}
		u, err := strconv.Unquote(s[:end+1])
		if err != nil {
			return "", fmt.Errorf("file name %s: %v", s[:end+1], err)
		}
		s = u
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	p, ok := strings.CutPrefix(s, "b/")
	if !ok || p == "" {
		return "", fmt.Errorf("file name %q does not start with the prefix b/", s)
	}
	return p, nil
}

// closingQuote is the index of the quote that closes the C-style quoted
// string s begins with, or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // skip the escaped character
		case '"':
			return i
		}
	}
	return -1
}

// addLine records line n as added; lines come in increasing order.
func (f *FileDiff) addLine(n int) {
	if k := len(f.Added); k > 0 && f.Added[k-1].To == n-1 {
		f.Added[k-1].To = n
		return
	}
	f.Added = append(f.Added, Span{n, n})
}

// normalize sorts and merges what hunks in an unusual order left out of
// order (git writes a file's hunks in order).
func (f *FileDiff) normalize() {
	slices.SortFunc(f.Added, func(a, b Span) int { return a.From - b.From })
	var merged []Span
	for _, s := range f.Added {
		if k := len(merged); k > 0 && s.From <= merged[k-1].To+1 {
			merged[k-1].To = max(merged[k-1].To, s.To)
			continue
		}
		merged = append(merged, s)
	}
	f.Added = merged
	slices.Sort(f.Removed)
	f.Removed = slices.Compact(f.Removed)
}

// removeAfter records lines removed after line n of the new version. A
// deleted file (f nil) has no new version to place them in.
func (f *FileDiff) removeAfter(n int) {
	if f == nil {
		return
	}
	if k := len(f.Removed); k > 0 && f.Removed[k-1] == n {
		return
	}
	f.Removed = append(f.Removed, n)
}
