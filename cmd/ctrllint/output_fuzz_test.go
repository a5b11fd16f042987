package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"encoding/xml"
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
	// GitHub's escapes, literal ones among them, and XML's.
	f.Add("a,b=c:d%0A.go", []byte("x\ny"), "100% of %0A, a::b, c:d\r\n::error::injected", "%25", uint16(0), uint16(3), false)
	f.Add("<&\">]]>.go", []byte("p"), "]]><!-- & \"quoted\" 'x' <tag> \t\x00\x1f\ufffe", "\U0001F600", uint16(0), uint16(1), false)
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

		severityOf := func(a string) string {
			if a == "badcalltwin" {
				return severityNote
			}
			return severityWarning
		}

		var text bytes.Buffer
		if err := writeText(&text, findings, rel, severityOf); err != nil {
			t.Fatal(err)
		}
		got, levels, err := readText(text.String(), wd)
		if err != nil {
			t.Fatalf("text: %v\n%s", err, text.String())
		}
		var want []finding.Finding
		for _, f := range findings {
			want = append(want, finding.Finding{Analyzer: f.Analyzer, Message: f.Message, Pos: finding.Position{File: f.Pos.File, Line: f.Pos.Line, Column: f.Pos.Column}})
		}
		if !reflect.DeepEqual(got, want) || !slices.Equal(levels, []string{severityWarning, severityNote}) {
			t.Fatalf("text:\n%s\nread back %+v, severities %q\nwant %+v", text.String(), got, levels, want)
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

		// The formats that carry problems too, with a problem at the
		// finding's start and one without a position.
		problems := []runProblem{
			{category: categoryLoad, pos: lineCol(start), msg: newText + msg},
			{category: categoryInternal, msg: msg},
		}
		problems[0].pos.File = file
		wantItems := expectedItems(findings, problems, severityOf, rel)

		js.Reset()
		if err := writeJSON(&js, findings, problems, rel, severityOf); err != nil {
			t.Fatal(err)
		}
		var raw []jsonFinding
		if err := json.Unmarshal(js.Bytes(), &raw); err != nil {
			t.Fatalf("json: %v\n%s", err, js.String())
		}
		var gotItems []reported
		for _, j := range raw {
			source := j.Analyzer
			if source == problemSource {
				source = j.Category
			}
			r := reported{Source: source, Severity: j.Severity, Message: j.Message, File: j.File, Line: j.Line, Column: j.Column, EndLine: j.EndLine, EndColumn: j.EndColumn}
			gotItems = append(gotItems, r)
		}
		if want := itemsAs(wantItems, jsonString, true); !reflect.DeepEqual(gotItems, want) {
			t.Fatalf("json with problems:\n%s\nread back %+v\nwant %+v", js.String(), gotItems, want)
		}

		var gh bytes.Buffer
		if err := writeGitHub(&gh, findings, problems, rel, severityOf); err != nil {
			t.Fatal(err)
		}
		gotItems, err = readGitHub(gh.String())
		if err != nil {
			t.Fatalf("github: %v\n%s", err, gh.String())
		}
		if want := githubItems(itemsAs(wantItems, jsonString, true)); !reflect.DeepEqual(gotItems, want) {
			t.Fatalf("github:\n%s\nread back %+v\nwant %+v", gh.String(), gotItems, want)
		}

		var cs bytes.Buffer
		if err := writeCheckstyle(&cs, findings, problems, rel, severityOf); err != nil {
			t.Fatal(err)
		}
		gotItems, err = readCheckstyle(cs.Bytes())
		if err != nil {
			t.Fatalf("checkstyle: %v\n%s", err, cs.String())
		}
		if want := checkstyleItems(itemsAs(wantItems, xmlString, false)); !reflect.DeepEqual(gotItems, want) {
			t.Fatalf("checkstyle:\n%s\nread back %+v\nwant %+v", cs.String(), gotItems, want)
		}
	})
}

// reported is what json, github and checkstyle carry of a finding or a
// problem; Source is the analyzer, or the problem's category.
type reported struct {
	Source, Severity, Message, File  string
	Line, Column, EndLine, EndColumn int
}

// expectedItem is a reported with the absolute file the documented
// order sorts by.
type expectedItem struct {
	reported
	abs string
}

// expectedItems is what the documentation says the formats carry, in the
// documented order: by file, line, column, analyzer ("ctrllint" for a
// problem) and message. Files are as written, before each format's
// escaping.
func expectedItems(findings []finding.Finding, problems []runProblem, severityOf func(string) string, rel func(string) string) []expectedItem {
	var out []expectedItem
	for _, f := range findings {
		out = append(out, expectedItem{reported{f.Analyzer, severityOf(f.Analyzer), f.Message, rel(f.Pos.File),
			f.Pos.Line, f.Pos.Column, f.End.Line, f.End.Column}, f.Pos.File})
	}
	for _, p := range problems {
		out = append(out, expectedItem{reported{p.category, "error", p.msg, rel(p.pos.File),
			p.pos.Line, p.pos.Column, p.pos.Line, p.pos.Column}, p.pos.File})
	}
	analyzer := func(e expectedItem) string {
		if e.Source == categoryLoad || e.Source == categoryInternal {
			return "ctrllint"
		}
		return e.Source
	}
	slices.SortStableFunc(out, func(x, y expectedItem) int {
		return cmp.Or(strings.Compare(x.abs, y.abs), cmp.Compare(x.Line, y.Line), cmp.Compare(x.Column, y.Column),
			strings.Compare(analyzer(x), analyzer(y)), strings.Compare(x.Message, y.Message))
	})
	return out
}

// itemsAs is items as a format carries their text: through conv.
func itemsAs(items []expectedItem, conv func(string) string, convFile bool) []reported {
	var out []reported
	for _, it := range items {
		r := it.reported
		r.Message = conv(r.Message)
		if convFile {
			r.File = conv(r.File)
		}
		out = append(out, r)
	}
	return out
}

// githubItems is what the github format documents of each item: severity
// note as notice, "/" separators, columns only on one line, no position
// but the file when the line is unknown.
func githubItems(items []reported) []reported {
	var out []reported
	for _, r := range items {
		if r.Severity == "note" {
			r.Severity = "notice"
		}
		r.File = filepath.ToSlash(r.File)
		if r.Line == 0 {
			r.EndLine = 0
		}
		if r.Line == 0 || r.EndLine != r.Line || r.Column == 0 {
			r.Column, r.EndColumn = 0, 0
		}
		out = append(out, r)
	}
	return out
}

// checkstyleItems is what checkstyle carries: no ends, note as info, files
// sorted by name (the file names converted already), items in order within.
func checkstyleItems(items []reported) []reported {
	var out []reported
	for _, r := range items {
		r.File = xmlString(r.File)
		r.EndLine, r.EndColumn = 0, 0
		if r.Severity == "note" {
			r.Severity = "info"
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(x, y reported) int { return strings.Compare(x.File, y.File) })
	return out
}

// xmlString is s as XML 1.0 can carry it: invalid UTF-8 and characters
// outside XML's Char production become U+FFFD.
func xmlString(s string) string {
	return strings.Map(func(r rune) rune {
		if r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
			return r
		}
		return 0xFFFD
	}, jsonString(s))
}

// readGitHub parses workflow commands as GitHub's runner does
// (actions/runner, ActionCommand.TryParseV2): "::", the command up to the
// first space, properties up to the next "::", split on "," and each on
// its first "=", then the data; properties and data unescaped in the
// runner's order, "%25" last. Every line must be a command.
func readGitHub(out string) ([]reported, error) {
	unescape := func(s string, property bool) string {
		s = strings.ReplaceAll(s, "%0D", "\r")
		s = strings.ReplaceAll(s, "%0A", "\n")
		if property {
			s = strings.ReplaceAll(s, "%3A", ":")
			s = strings.ReplaceAll(s, "%2C", ",")
		}
		return strings.ReplaceAll(s, "%25", "%")
	}
	var rs []reported
	for _, line := range strings.SplitAfter(out, "\n") {
		if line == "" {
			continue
		}
		if !strings.HasSuffix(line, "\n") {
			return nil, fmt.Errorf("%q: no newline at the end", line)
		}
		line = strings.TrimSuffix(line, "\n")
		if strings.ContainsAny(line, "\r") {
			return nil, fmt.Errorf("%q: a CR ends the line early", line)
		}
		if !strings.HasPrefix(line, "::") {
			return nil, fmt.Errorf("%q: not a workflow command", line)
		}
		end := strings.Index(line[2:], "::")
		if end < 0 {
			return nil, fmt.Errorf("%q: no end of properties", line)
		}
		info, data := line[2:2+end], line[2+end+2:]
		cmd, props, _ := strings.Cut(info, " ")
		r := reported{Severity: cmd, Message: unescape(data, false)}
		if cmd != "error" && cmd != "warning" && cmd != "notice" {
			return nil, fmt.Errorf("%q: command %q", line, cmd)
		}
		seen := map[string]bool{}
		for _, p := range strings.Split(props, ",") {
			k, v, ok := strings.Cut(p, "=")
			if !ok || k == "" || v == "" {
				return nil, fmt.Errorf("%q: property %q", line, p)
			}
			if seen[k] {
				return nil, fmt.Errorf("%q: %s twice", line, k)
			}
			seen[k] = true
			v = unescape(v, true)
			n, err := strconv.Atoi(v)
			switch k {
			case "file":
				r.File = v
			case "title":
				src, ok := strings.CutPrefix(v, "ctrllint (")
				if src, ok = strings.CutSuffix(src, ")"); !ok {
					return nil, fmt.Errorf("%q: title %q", line, v)
				}
				r.Source = src
			case "line", "col", "endLine", "endColumn":
				if err != nil || n < 1 {
					return nil, fmt.Errorf("%q: %s=%s", line, k, v)
				}
				*map[string]*int{"line": &r.Line, "col": &r.Column, "endLine": &r.EndLine, "endColumn": &r.EndColumn}[k] = n
			default:
				return nil, fmt.Errorf("%q: unknown property %s", line, k)
			}
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// readCheckstyle parses the report with encoding/xml, as reviewdog does,
// and checks its documented shape: files sorted by name, each once.
func readCheckstyle(out []byte) ([]reported, error) {
	if !bytes.HasPrefix(out, []byte(`<?xml version="1.0" encoding="UTF-8"?>`)) {
		return nil, fmt.Errorf("no XML declaration")
	}
	var report checkstyleReport
	if err := xml.Unmarshal(out, &report); err != nil {
		return nil, err
	}
	if report.Version != checkstyleVersion {
		return nil, fmt.Errorf("version %q", report.Version)
	}
	var rs []reported
	for i, f := range report.Files {
		if i > 0 && report.Files[i-1].Name >= f.Name {
			return nil, fmt.Errorf("files %q and %q out of order", report.Files[i-1].Name, f.Name)
		}
		for _, e := range f.Errors {
			src, ok := strings.CutPrefix(e.Source, "ctrllint.")
			if !ok {
				return nil, fmt.Errorf("source %q", e.Source)
			}
			rs = append(rs, reported{Source: src, Severity: e.Severity, Message: e.Message, File: f.Name, Line: e.Line, Column: e.Column})
		}
	}
	return rs, nil
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

// textLine is the documented text format: file:line:col: message
// (analyzer), with "error: " or "note: " before the message when that is
// the severity.
var textLine = regexp.MustCompile(`^:(\d+):(\d+): (?:(error|note): )?(.*) \(([A-Za-z_][A-Za-z0-9_]*)\)$`)

// readText reads the findings back, and the severity of each.
func readText(out, wd string) ([]finding.Finding, []string, error) {
	var fs []finding.Finding
	var levels []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		var file, rest string
		if strings.HasPrefix(line, `"`) {
			lit, err := strconv.QuotedPrefix(line)
			if err != nil {
				return nil, nil, fmt.Errorf("%q: %v", line, err)
			}
			file, _ = strconv.Unquote(lit)
			rest = line[len(lit):]
		} else {
			// The file holds no ": ", the first one ends the position.
			i := strings.Index(line, ": ")
			if i < 0 {
				return nil, nil, fmt.Errorf("%q: no position", line)
			}
			head := line[:i]
			j := strings.LastIndex(head, ":")
			if j >= 0 {
				j = strings.LastIndex(head[:j], ":")
			}
			if j < 0 {
				return nil, nil, fmt.Errorf("%q: no position", line)
			}
			file, rest = head[:j], line[j:]
		}
		m := textLine.FindStringSubmatch(rest)
		if m == nil {
			return nil, nil, fmt.Errorf("%q: not file:line:col: message (analyzer)", line)
		}
		level, msg := cmp.Or(m[3], severityWarning), m[4]
		if strings.HasPrefix(msg, `"`) {
			var err error
			if msg, err = strconv.Unquote(msg); err != nil {
				return nil, nil, fmt.Errorf("%q: message: %v", line, err)
			}
		}
		if !filepath.IsAbs(file) {
			file = filepath.Join(wd, file)
		}
		l, _ := strconv.Atoi(m[1])
		c, _ := strconv.Atoi(m[2])
		fs = append(fs, finding.Finding{Analyzer: m[5], Message: msg, Pos: finding.Position{File: file, Line: l, Column: c}})
		levels = append(levels, level)
	}
	return fs, levels, sc.Err()
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
		// Not a note's.
		{Analyzer: "badcall", Message: "note: a warning", Pos: finding.Position{File: filepath.Join(dir, "a.go"), Line: 7, Column: 8}},
	}
	var out bytes.Buffer
	if err := writeText(&out, findings, relativizer(dir), defaultSeverity); err != nil {
		t.Fatal(err)
	}
	want := `a.go:1:2: "two\nlines" (badcall)` + "\n" +
		`"x: y.go":3:4: "\x1b[2Jcleared" (badcall)` + "\n" +
		`a.go:5:6: "\"quoted\" at the start" (badcall)` + "\n" +
		`a.go:7:8: "note: a warning" (badcall)` + "\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", &out, want)
	}
}
