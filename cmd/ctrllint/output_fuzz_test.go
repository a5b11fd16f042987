package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// The output formats are read back by readers written from their
// documentation (docs/README.md, output_json.go, SARIF 2.1.0): every
// finding written must read back as it was, in what the format carries.

// FuzzOutputRoundTrip writes findings made from arbitrary file names,
// file contents, messages and positions in each format and reads them
// back.
func FuzzOutputRoundTrip(f *testing.F) {
	f.Add("a.go", []byte("package a\n\nfunc F() { bad() }\n"), "call of bad", "good", uint16(22), uint16(25), false)
	f.Add("sub/é😀.go", []byte("é😀\n\tbad()"), "line one\nline two", "", uint16(7), uint16(9), false)
	f.Add("x: y.go", []byte("\xff\xfe\n"), "\"quoted\" \x1b[31mred\x1b[0m", "\r\n", uint16(1), uint16(3), true)
	f.Add("a:1:2:b.go", []byte(""), "ends with (parens) ", "\u202e", uint16(0), uint16(0), false)
	f.Add("%20 #?.go", []byte("a\r\nb"), "\xffinvalid", "x", uint16(3), uint16(4), true)
	f.Fuzz(func(t *testing.T, name string, content []byte, msg, newText string, pos, end uint16, outside bool) {
		wd := "/work/dir"
		file := filepath.Join(wd, name)
		if outside {
			file = filepath.Clean("/" + name)
		}
		other := filepath.Join(wd, "other.go")
		contents := map[string][]byte{file: content, other: nil}
		at := func(off uint16) finding.Position { return positionIn(file, content, int(off)) }
		start, stop := at(min(pos, end)), at(max(pos, end))
		fd := finding.Finding{
			Analyzer: "badcall", Category: "calls", Message: msg, Pos: start, End: stop,
			Fixes: []finding.Fix{{Message: "fix: " + msg, Edits: []finding.Edit{
				{Pos: start, End: stop, NewText: newText},
				{Pos: positionIn(other, nil, 0), End: positionIn(other, nil, 0), NewText: newText},
				{Pos: stop, End: stop, NewText: "+"},
			}}},
		}
		findings := []finding.Finding{fd, {Analyzer: "badcalltwin", Message: msg + msg, Pos: stop, End: stop}}
		rel := relativizer(wd)

		var text bytes.Buffer
		writeText(&text, findings, rel)
		got, err := readText(text.String(), wd)
		if err != nil {
			t.Fatalf("text: %v\n%s", err, text.String())
		}
		var want []finding.Finding
		for _, f := range findings {
			want = append(want, finding.Finding{Analyzer: f.Analyzer, Message: f.Message, Pos: finding.Position{File: f.Pos.File, Line: f.Pos.Line, Column: f.Pos.Column}})
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("text:\n%s\nread back %+v\nwant %+v", text.String(), got, want)
		}

		var js bytes.Buffer
		if err := writeJSON(&js, findings, nil, rel, defaultSeverity); err != nil {
			t.Fatal(err)
		}
		got, err = readJSON(js.Bytes(), wd)
		if err != nil {
			t.Fatalf("json: %v\n%s", err, js.String())
		}
		want = nil
		for _, f := range findings {
			w := finding.Finding{Analyzer: f.Analyzer, Category: f.Category, Message: jsonString(f.Message),
				Pos: lineCol(f.Pos), End: lineCol(f.End)}
			w.Pos.File = jsonString(f.Pos.File)
			for _, fx := range f.Fixes {
				wf := finding.Fix{Message: jsonString(fx.Message)}
				for _, e := range fx.Edits {
					wf.Edits = append(wf.Edits, finding.Edit{
						Pos:     finding.Position{File: jsonString(e.Pos.File), Offset: e.Pos.Offset},
						End:     finding.Position{Offset: e.End.Offset},
						NewText: jsonString(e.NewText),
					})
				}
				w.Fixes = append(w.Fixes, wf)
			}
			want = append(want, w)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("json:\n%s\nread back %+v\nwant %+v", js.String(), got, want)
		}

		var sarif bytes.Buffer
		s := testSuite()
		readFile := func(name string) ([]byte, error) {
			if c, ok := contents[name]; ok {
				return c, nil
			}
			return nil, os.ErrNotExist
		}
		in := sarifInput{suite: s, enabled: s.analyzers, wd: wd, readFile: readFile}
		if err := writeSARIF(&sarif, findings, in); err != nil {
			t.Fatal(err)
		}
		got, err = readSARIF(sarif.Bytes(), wd, readFile)
		if err != nil {
			t.Fatalf("sarif: %v\n%s", err, sarif.String())
		}
		want = nil
		for _, f := range findings {
			w := finding.Finding{Analyzer: f.Analyzer, Message: jsonString(f.Message), Pos: lineCol(f.Pos), End: lineCol(f.End)}
			w.Pos.File = f.Pos.File // URIs escape every byte
			for _, fx := range f.Fixes {
				wf := finding.Fix{Message: jsonString(fx.Message)}
				// Replacements are grouped by file, in the order the files
				// first appear.
				var files []string
				for _, e := range fx.Edits {
					if !slices.Contains(files, e.Pos.File) {
						files = append(files, e.Pos.File)
					}
				}
				for _, file := range files {
					for _, e := range fx.Edits {
						if e.Pos.File == file {
							ew := finding.Edit{Pos: lineCol(e.Pos), End: lineCol(e.End), NewText: jsonString(e.NewText)}
							ew.Pos.File = e.Pos.File
							wf.Edits = append(wf.Edits, ew)
						}
					}
				}
				w.Fixes = append(w.Fixes, wf)
			}
			want = append(want, w)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("sarif:\n%s\nread back %+v\nwant %+v", sarif.String(), got, want)
		}
	})
}

// positionIn is the position of the rune boundary at or before off in
// content, as go/token gives it.
func positionIn(file string, content []byte, off int) finding.Position {
	off = min(off, len(content))
	p := finding.Position{File: file, Line: 1, Column: 1}
	for i := 0; i < len(content); {
		_, size := utf8.DecodeRune(content[i:])
		if i+size > off {
			break
		}
		if content[i] == '\n' {
			p.Line++
			p.Column = 0
		}
		p.Column += size
		i += size
		p.Offset = i
	}
	return p
}

func lineCol(p finding.Position) finding.Position {
	return finding.Position{Line: p.Line, Column: p.Column}
}

// jsonString is s as JSON carries it: invalid UTF-8 bytes become U+FFFD.
func jsonString(s string) string { return string([]rune(s)) }

// textLine is the documented text format: file:line:col: message (analyzer).
var textLine = regexp.MustCompile(`^:(\d+):(\d+): (.*) \(([A-Za-z_][A-Za-z0-9_]*)\)$`)

func readText(out, wd string) ([]finding.Finding, error) {
	var fs []finding.Finding
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		var file, rest string
		if strings.HasPrefix(line, `"`) {
			lit, err := strconv.QuotedPrefix(line)
			if err != nil {
				return nil, fmt.Errorf("%q: %v", line, err)
			}
			file, _ = strconv.Unquote(lit)
			rest = line[len(lit):]
		} else {
			// The file holds no ": ", the first one ends the position.
			i := strings.Index(line, ": ")
			if i < 0 {
				return nil, fmt.Errorf("%q: no position", line)
			}
			head := line[:i]
			j := strings.LastIndex(head, ":")
			if j >= 0 {
				j = strings.LastIndex(head[:j], ":")
			}
			if j < 0 {
				return nil, fmt.Errorf("%q: no position", line)
			}
			file, rest = head[:j], line[j:]
		}
		m := textLine.FindStringSubmatch(rest)
		if m == nil {
			return nil, fmt.Errorf("%q: not file:line:col: message (analyzer)", line)
		}
		msg := m[3]
		if strings.HasPrefix(msg, `"`) {
			var err error
			if msg, err = strconv.Unquote(msg); err != nil {
				return nil, fmt.Errorf("%q: message: %v", line, err)
			}
		}
		if !filepath.IsAbs(file) {
			file = filepath.Join(wd, file)
		}
		l, _ := strconv.Atoi(m[1])
		c, _ := strconv.Atoi(m[2])
		fs = append(fs, finding.Finding{Analyzer: m[4], Message: msg, Pos: finding.Position{File: file, Line: l, Column: c}})
	}
	return fs, sc.Err()
}

func readJSON(out []byte, wd string) ([]finding.Finding, error) {
	var in []jsonFinding
	if err := json.Unmarshal(out, &in); err != nil {
		return nil, err
	}
	abs := func(f string) string {
		if filepath.IsAbs(f) {
			return f
		}
		return filepath.Join(wd, f)
	}
	var fs []finding.Finding
	for _, j := range in {
		f := finding.Finding{Analyzer: j.Analyzer, Category: j.Category, Message: j.Message,
			Pos: finding.Position{File: abs(j.File), Line: j.Line, Column: j.Column},
			End: finding.Position{Line: j.EndLine, Column: j.EndColumn}}
		for _, x := range j.Fixes {
			fx := finding.Fix{Message: x.Message}
			for _, e := range x.Edits {
				fx.Edits = append(fx.Edits, finding.Edit{Pos: finding.Position{File: abs(e.File), Offset: e.Start}, End: finding.Position{Offset: e.End}, NewText: e.NewText})
			}
			f.Fixes = append(f.Fixes, fx)
		}
		fs = append(fs, f)
	}
	return fs, nil
}

func readSARIF(out []byte, wd string, readFile func(string) ([]byte, error)) ([]finding.Finding, error) {
	var log sarifLog
	if err := json.Unmarshal(out, &log); err != nil {
		return nil, err
	}
	if len(log.Runs) != 1 {
		return nil, fmt.Errorf("%d runs", len(log.Runs))
	}
	run := log.Runs[0]
	base, err := url.Parse(run.OriginalURIBaseIDs[srcRoot].URI)
	if err != nil {
		return nil, err
	}
	if base.Path != wd+"/" {
		return nil, fmt.Errorf("%%SRCROOT%% is %s", base)
	}
	file := func(l sarifLocation) (string, error) {
		u, err := url.Parse(l.URI)
		if err != nil {
			return "", err
		}
		if l.URIBaseID == srcRoot {
			return filepath.Join(wd, filepath.FromSlash(u.Path)), nil
		}
		if u.Scheme != "file" {
			return "", fmt.Errorf("%s: neither relative to %%SRCROOT%% nor a file URI", l.URI)
		}
		return filepath.FromSlash(u.Path), nil
	}
	// Columns are UTF-16 code units: back to bytes with the file.
	pos := func(name string, line, col int) finding.Position {
		src, _ := readFile(name)
		start := 0
		for l := 1; l < line && start < len(src); l++ {
			i := bytes.IndexByte(src[start:], '\n')
			if i < 0 {
				return finding.Position{Line: line, Column: col}
			}
			start += i + 1
		}
		b := start
		for units := 1; units < col && b < len(src); {
			r, size := utf8.DecodeRune(src[b:])
			units += utf16.RuneLen(r)
			b += size
		}
		return finding.Position{Line: line, Column: b - start + 1}
	}
	var fs []finding.Finding
	for _, r := range run.Results {
		if len(r.Locations) != 1 {
			return nil, fmt.Errorf("%d locations", len(r.Locations))
		}
		if rule := run.Tool.Driver.Rules[r.RuleIndex]; rule.ID != r.RuleID {
			return nil, fmt.Errorf("ruleIndex %d is %s, not %s", r.RuleIndex, rule.ID, r.RuleID)
		}
		loc := r.Locations[0].PhysicalLocation
		name, err := file(loc.ArtifactLocation)
		if err != nil {
			return nil, err
		}
		f := finding.Finding{Analyzer: r.RuleID, Message: r.Message.Text,
			Pos: pos(name, loc.Region.StartLine, loc.Region.StartColumn),
			End: pos(name, loc.Region.EndLine, loc.Region.EndColumn)}
		f.Pos.File = name
		for _, x := range r.Fixes {
			fx := finding.Fix{Message: x.Description.Text}
			for _, c := range x.ArtifactChanges {
				name, err := file(c.ArtifactLocation)
				if err != nil {
					return nil, err
				}
				for _, rep := range c.Replacements {
					d := rep.DeletedRegion
					e := finding.Edit{Pos: pos(name, d.StartLine, d.StartColumn), End: pos(name, d.EndLine, d.EndColumn), NewText: rep.InsertedContent.Text}
					e.Pos.File = name
					fx.Edits = append(fx.Edits, e)
				}
			}
			f.Fixes = append(f.Fixes, fx)
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// The text format on a message and a file name it cannot print as they
// are: quoted, and read back.
func TestTextOutputQuotes(t *testing.T) {
	dir := testanalyzers.WriteModule(t, nil)
	findings := []finding.Finding{
		{Analyzer: "badcall", Message: "two\nlines", Pos: finding.Position{File: filepath.Join(dir, "a.go"), Line: 1, Column: 2}},
		{Analyzer: "badcall", Message: "\x1b[2Jcleared", Pos: finding.Position{File: filepath.Join(dir, "x: y.go"), Line: 3, Column: 4}},
		{Analyzer: "badcall", Message: `"quoted" at the start`, Pos: finding.Position{File: filepath.Join(dir, "a.go"), Line: 5, Column: 6}},
	}
	var out bytes.Buffer
	writeText(&out, findings, relativizer(dir))
	want := `a.go:1:2: "two\nlines" (badcall)` + "\n" +
		`"x: y.go":3:4: "\x1b[2Jcleared" (badcall)` + "\n" +
		`a.go:5:6: "\"quoted\" at the start" (badcall)` + "\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", &out, want)
	}
}
