package baseline

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// at is a finding of analyzer a with message msg at the first occurrence
// of marker in file, whose content is src.
func at(t *testing.T, file, src, marker, a, msg string) finding.Finding {
	t.Helper()
	off := strings.Index(src, marker)
	if off < 0 {
		t.Fatalf("%q not in %s", marker, file)
	}
	return atOffset(file, src, off, a, msg)
}

func write(t *testing.T, path, src string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The line numbers a message cites move with edits above them, as the
// finding's own line does; whitespace in the code line is left out.
func TestHash(t *testing.T) {
	same := [][2][2]string{
		{{"requested after its Start (line 70)", "x"}, {"requested after its Start (line 95)", "x"}},
		{{"read by Get at line 87, sent at line 9", "x"}, {"read by Get at line 1, sent at line 12", "x"}},
		{{"written at ctl/c.go:31", "x"}, {"written at ctl/c.go:7", "x"}},
		// forget's and queuedone's lists of paths' ends.
		{{"the paths ending at lines 1176, 1188, 1203 and 1213 stop", "x"}, {"the paths ending at lines 1177, 1189, 1204 and 1214 stop", "x"}},
		{{"on the paths ending at lines 12 and 30", "x"}, {"on the paths ending at lines 13 and 31", "x"}},
		{{"m", "\tif x  == nil { // why"}, {"m", "    if x == nil {  // why  "}},
	}
	for _, p := range same {
		if Hash(p[0][0], p[0][1]) != Hash(p[1][0], p[1][1]) {
			t.Errorf("%q and %q hash differently", p[0], p[1])
		}
	}
	differ := [][2][2]string{
		{{"m", "x"}, {"n", "x"}},
		{{"m", "x"}, {"m", "y"}},
		{{"3 retries", "x"}, {"4 retries", "x"}},
		{{"pipeline 3", "x"}, {"pipeline 4", "x"}},
	}
	for _, p := range differ {
		if Hash(p[0][0], p[0][1]) == Hash(p[1][0], p[1][1]) {
			t.Errorf("%q and %q hash alike", p[0], p[1])
		}
	}
}

func TestEnclosingFunc(t *testing.T) {
	src := `package p

var v = func() int { return 1 }()

func F() {
	_ = func() { G() }
}

type T[K comparable] struct{}

func (T[K]) M()  { G() }
func (*T[K]) P() { G() }

type U struct{}

func (u *U) Q() { G() }
func (U) R()    { G() }
func G()        {}
`
	dir := t.TempDir()
	file := filepath.Join(dir, "p.go")
	write(t, file, src)
	k, err := newKeyer(dir)
	if err != nil {
		t.Fatal(err)
	}
	for marker, want := range map[string]string{
		"return 1":        "",
		"_ = func() { G":  "F",
		"G() }\nfunc (*T": "(T).M",
		"G() }\n\ntype U": "(*T).P",
		"G() }\nfunc (U)": "(*U).Q",
		"G() }\nfunc G":   "(U).R",
		"package p":       "",
	} {
		e, err := k.entry(ptr(at(t, file, src, marker, "a", "m")))
		if err != nil {
			t.Fatal(err)
		}
		if e.Function != want {
			t.Errorf("at %q: function %q, want %q", marker, e.Function, want)
		}
	}
}

func ptr(f finding.Finding) *finding.Finding { return &f }

// The life of a baseline: written, read back, matched after edits.
func TestMatch(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pkg", "a.go")
	src := "package p\n\nfunc F() {\n\tbad()\n\tbad()\n}\n\nfunc G() {\n\tbad()\n}\n"
	write(t, file, src)
	// calls are the findings of badcall in src: one per call of bad.
	calls := func(src string) []finding.Finding {
		var fs []finding.Finding
		for off := 0; ; off++ {
			j := strings.Index(src[off:], "bad(")
			if j < 0 {
				return fs
			}
			off += j
			fs = append(fs, atOffset(file, src, off, "badcall", "call of bad"))
		}
	}
	findings := calls(src)
	if len(findings) != 3 {
		t.Fatalf("%d findings", len(findings))
	}
	path := filepath.Join(dir, "ctrllint.baseline")
	entries, err := Write(path, findings)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("entries %+v, want 2 (F's two calls counted)", entries)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	hash := Hash("call of bad", "bad()")
	want := []string{
		`{"ctrllint-baseline":1}`,
		`{"file":"pkg/a.go","function":"F","analyzer":"badcall","message":"call of bad","hash":"` + hash + `","count":2}`,
		`{"file":"pkg/a.go","function":"G","analyzer":"badcall","message":"call of bad","hash":"` + hash + `"}`,
	}
	if !reflect.DeepEqual(lines, want) {
		t.Fatalf("baseline:\n%s\nwant:\n%s", data, strings.Join(want, "\n"))
	}

	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		src       string
		baselined []bool
		gone      int
	}{
		{"unchanged", src, []bool{true, true, true}, 0},
		{"lines added above, re-indented", "package p\n\n// doc\n\n\nfunc F() {\n        bad( )\n\tbad()\n}\n\nfunc G() {\n\tbad()\n}\n", []bool{true, true, true}, 0},
		{"a third in F", "package p\n\nfunc F() {\n\tbad()\n\tbad()\n\tbad()\n}\n\nfunc G() {\n\tbad()\n}\n", []bool{true, true, false, true}, 0},
		{"one fixed in F", "package p\n\nfunc F() {\n\tbad()\n}\n\nfunc G() {\n\tbad()\n}\n", []bool{true, true}, 1},
		{"code line changed", "package p\n\nfunc F() {\n\tbad()\n\tbad()\n}\n\nfunc G() {\n\tx := 1; bad()\n}\n", []bool{true, true, false}, 1},
		{"moved to another function", "package p\n\nfunc F() {\n\tbad()\n\tbad()\n}\n\nfunc H() {\n\tbad()\n}\n", []bool{true, true, false}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write(t, file, tc.src)
			m, err := b.Match(calls(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			gone := 0
			for _, e := range m.Gone {
				gone += e.Count
			}
			if !reflect.DeepEqual(m.Baselined, tc.baselined) || gone != tc.gone {
				t.Errorf("baselined %v, gone %d (%+v); want %v, %d", m.Baselined, gone, m.Gone, tc.baselined, tc.gone)
			}
		})
	}
}

func atOffset(file, src string, off int, a, msg string) finding.Finding {
	line := strings.Count(src[:off], "\n") + 1
	col := off - strings.LastIndexByte(src[:off], '\n')
	p := finding.Position{File: file, Offset: off, Line: line, Column: col}
	return finding.Finding{Analyzer: a, Message: msg, Pos: p, End: p}
}

// The file's path is relative to the baseline's directory, however the
// directory is spelt (here through a symbolic link).
func TestRelativeToBaseline(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	file := filepath.Join(real, "a.go")
	write(t, file, "package p\n\nfunc F() { bad() }\n")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	f := atOffset(filepath.Join(link, "a.go"), "package p\n\nfunc F() { bad() }\n", 22, "badcall", "m")
	entries, err := Build(filepath.Join(real, "sub"), []finding.Finding{f})
	if err == nil {
		t.Fatalf("Build in a missing directory: %+v", entries)
	}
	if err := os.Mkdir(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err = Build(filepath.Join(real, "sub"), []finding.Finding{f})
	if err != nil {
		t.Fatal(err)
	}
	if entries[0].File != "../a.go" || entries[0].Function != "F" {
		t.Errorf("entry %+v", entries[0])
	}
}

func TestDecodeErrors(t *testing.T) {
	const head = `{"ctrllint-baseline":1}` + "\n"
	const entry = `{"file":"a.go","function":"F","analyzer":"badcall","message":"m","hash":"00"}` + "\n"
	for _, tc := range []struct{ name, data, want string }{
		{"empty", "", "b: empty, not a ctrllint baseline"},
		{"not a baseline", "[]\n", `b:1: not a ctrllint baseline (its first line is {"ctrllint-baseline":1})`},
		{"other JSON object", `{"version":1}` + "\n", "b:1: not a ctrllint baseline"},
		{"newer version", `{"ctrllint-baseline":2}` + "\n", "b:1: baseline format version 2, this ctrllint reads version 1"},
		{"truncated entry", head + entry + `{"file":"a.go","func`, "b:3: not a baseline entry: unexpected EOF"},
		{"unknown field", head + `{"file":"a.go","analyzr":"x","hash":"00"}` + "\n", `b:2: not a baseline entry: json: unknown field "analyzr"`},
		{"no analyzer", head + `{"file":"a.go","hash":"00"}` + "\n", `b:2: no "analyzer"`},
		{"no hash", head + `{"file":"a.go","analyzer":"x"}` + "\n", `b:2: no "hash"`},
		{"negative count", head + `{"analyzer":"x","hash":"00","count":-1}` + "\n", `b:2: "count" -1 is negative`},
		{"absolute file", head + `{"file":"/a.go","analyzer":"x","hash":"00"}` + "\n", `b:2: "file" "/a.go" is not a slash path`},
		{"two values", head + entry[:len(entry)-1] + "{}\n", "b:2: not a baseline entry: text after the JSON object"},
		{"blank line", head + "\n" + entry, "b:2: not a baseline entry: EOF"},
		{"duplicate", head + entry + entry, "b:3: same finding as line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(tc.data), "b")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want it to start with %q", err, tc.want)
			}
		})
	}
	// CRLF line endings and a count of 1 written out are the same baseline.
	es, err := Decode(strings.NewReader(strings.ReplaceAll(head+entry, "\n", "\r\n")+`{"analyzer":"x","hash":"01","count":1}`), "b")
	if err != nil || len(es) != 2 || es[0].Count != 1 || es[1].Count != 1 {
		t.Errorf("CRLF: %+v, %v", es, err)
	}
}

// Encode and Decode are inverses, and Encode sorts.
func TestRoundTrip(t *testing.T) {
	in := []Entry{
		{File: "b.go", Function: "F", Analyzer: "x", Message: "m <&>", Hash: "01", Count: 3},
		{File: "a.go", Function: "(*T).M", Analyzer: "y", Message: "m", Hash: "02", Count: 1},
		{File: "", Function: "", Analyzer: "z", Message: "no position", Hash: "03", Count: 1},
	}
	var buf bytes.Buffer
	if err := Encode(&buf, in); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"m <&>"`) {
		t.Errorf("HTML-escaped message:\n%s", buf.String())
	}
	out, err := Decode(&buf, "b")
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{in[2], in[1], in[0]}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got %+v\nwant %+v", out, want)
	}
}

// A run without findings writes a baseline of none, which reads back.
func TestEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b")
	if _, err := Write(path, nil); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"ctrllint-baseline":1}`+"\n" {
		t.Errorf("empty baseline %q", data)
	}
	b, err := Read(path)
	if err != nil || len(b.Entries()) != 0 {
		t.Errorf("read back: %v, %v", b, err)
	}
}

// writeHelper is set in the environment of the test binary that
// TestWriteFailure re-runs: the run that writes under a file size limit,
// which would stop every other test's writes too.
const writeHelper = "CTRLLINT_TEST_BASELINE_WRITE_UNDER_LIMIT"

// A write that fails part-way (a file size limit, as a full disk or a
// quota would; unlike permissions, it stops root too) leaves the previous
// baseline byte for byte, and no temporary file.
func TestWriteFailure(t *testing.T) {
	if path := os.Getenv(writeHelper); path != "" {
		testanalyzers.LimitFileSize(t, 4096)
		err := writeFile(path, bytes.Repeat([]byte("x"), 8192))
		fmt.Println("write error:", err)
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "b")
	write(t, path, "previous\n")
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFailure$", "-test.v")
	cmd.Env = append(os.Environ(), writeHelper+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "write error: write "+dir) {
		t.Fatalf("the write under the limit did not fail:\n%s", out)
	}
	if got, _ := os.ReadFile(path); string(got) != "previous\n" {
		t.Errorf("baseline changed: %d bytes, %.20q...", len(got), got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

// 200 files of 50 findings each: reading, parsing and hashing per run.
func BenchmarkMatch(b *testing.B) {
	dir := b.TempDir()
	var src strings.Builder
	src.WriteString("package p\n\n")
	for i := range 50 {
		fmt.Fprintf(&src, "func F%d() {\n\tx := %d\n\tbad(x)\n}\n\n", i, i)
	}
	var findings []finding.Finding
	for f := range 200 {
		file := filepath.Join(dir, fmt.Sprintf("f%d.go", f))
		if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		s := src.String()
		for off := 0; ; off++ {
			j := strings.Index(s[off:], "bad(")
			if j < 0 {
				break
			}
			off += j
			findings = append(findings, atOffset(file, s, off, "badcall", "call of bad"))
		}
	}
	path := filepath.Join(dir, "b")
	if _, err := Write(path, findings); err != nil {
		b.Fatal(err)
	}
	bl, err := Read(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		m, err := bl.Match(findings)
		if err != nil || m.Gone != nil {
			b.Fatal(err, m.Gone)
		}
	}
}

// A baseline written when a message's list of lines ("the paths ending at
// lines 5 and 9") was hashed with its numbers still matches, as long as
// the lines are where they were; a new one ignores them.
func TestLegacyListOfLines(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	src := "package p\n\nfunc F() {\n\tget()\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := "obj is never forgotten: the paths ending at lines 5 and 9 stop retrying it"
	f := atOffset(file, src, strings.Index(src, "get()"), "forget", msg)
	if legacyHash(msg, "\tget()") == Hash(msg, "\tget()") {
		t.Fatal("the legacy and current hashes of a list of lines agree: the test checks nothing")
	}
	old := Of(dir, []Entry{{File: "a.go", Function: "F", Analyzer: "forget", Message: msg, Hash: legacyHash(msg, "\tget()"), Count: 1}})
	m, err := old.Match([]finding.Finding{f})
	if err != nil || !m.Baselined[0] {
		t.Errorf("a legacy entry does not match: %v %+v", err, m)
	}
	moved := f
	moved.Message = "obj is never forgotten: the paths ending at lines 6 and 10 stop retrying it"
	entries, err := Build(dir, []finding.Finding{f})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := Of(dir, entries).Match([]finding.Finding{moved}); err != nil || !m.Baselined[0] {
		t.Errorf("a current entry does not match the finding with its lines moved: %v %+v", err, m)
	}
}
