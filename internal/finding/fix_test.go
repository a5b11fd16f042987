package finding_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// edit builds an edit of file replacing src[from:to]; positions carry
// only what PlanFixes reads.
func edit(file string, from, to int, text string) finding.Edit {
	return finding.Edit{
		Pos:     finding.Position{File: file, Offset: from},
		End:     finding.Position{File: file, Offset: to},
		NewText: text,
	}
}

func withFix(msg string, edits ...finding.Edit) finding.Finding {
	return finding.Finding{Analyzer: "test", Message: msg, Pos: edits[0].Pos, Fixes: []finding.Fix{{Message: "fix " + msg, Edits: edits}}}
}

func TestPlanFixesConflictsAndDuplicates(t *testing.T) {
	const file = "/virtual/a.go"
	const src = "package a\n\nvar x = 1\nvar y = 2\nvar z = 3\n"
	read := func(name string) ([]byte, error) {
		if name != file {
			return nil, os.ErrNotExist
		}
		return []byte(src), nil
	}
	off := func(s string) int { return strings.Index(src, s) }
	importAt := off("\nvar x") + 1

	findings := []finding.Finding{
		// 0: rename x, and add an import.
		withFix("x", edit(file, off("x ="), off("x =")+1, "xx"), edit(file, importAt, importAt, "import \"fmt\"\n\n")),
		// 1: the same import (identical edit) and a rename of y: applied,
		// the import once.
		withFix("y", edit(file, importAt, importAt, "import \"fmt\"\n\n"), edit(file, off("y ="), off("y =")+1, "yy")),
		// 2: overlaps the rename of x: skipped as a whole, so its
		// rename of z must not happen either.
		withFix("conflict", edit(file, off("var x"), off("x =")+3, "var q ="), edit(file, off("z ="), off("z =")+1, "zz")),
		// 3: rewrites "z = 3".
		withFix("zline", edit(file, off("z = 3"), off("z = 3")+5, "z = 4")),
		// 4: an insertion strictly inside a replaced range conflicts.
		withFix("inside", edit(file, off("z = 3")+2, off("z = 3")+2, "!")),
		// 5: a different insertion at the import point: the order of the
		// two would be arbitrary, so it conflicts.
		withFix("other import", edit(file, importAt, importAt, "import \"os\"\n\n")),
		// 6: out of range (the file changed since analysis).
		withFix("stale", edit(file, len(src)+5, len(src)+6, "")),
		// 7: an insertion touching the end of x's rename is fine.
		withFix("touch", edit(file, off("x =")+1, off("x =")+1, "_")),
	}
	findings = append(findings, finding.Finding{Analyzer: "test", Message: "no fix"})

	plan := finding.PlanFixes(findings, finding.PlanOptions{ReadFile: read})
	wantApplied := []bool{true, true, false, true, false, false, false, true, false}
	for i, w := range wantApplied {
		if plan.Applied[i] != w {
			t.Errorf("Applied[%d] (%s) = %v, want %v", i, findings[i].Message, plan.Applied[i], w)
		}
	}
	if len(plan.Skipped) != 4 {
		t.Fatalf("skipped: %v", plan.Skipped)
	}
	for i, want := range []string{"conflicts with another fix", "conflicts with another fix", "conflicts with another fix", "outside"} {
		if !strings.Contains(plan.Skipped[i].Reason, want) {
			t.Errorf("skipped[%d] = %v, want reason %q", i, plan.Skipped[i], want)
		}
	}
	if s := plan.Skipped[0].String(); !strings.Contains(s, `skipped fix "fix conflict" of test`) {
		t.Errorf("skip message: %s", s)
	}
	got := string(plan.Files[file])
	want := "package a\n\nimport \"fmt\"\n\nvar xx_ = 1\nvar yy = 2\nvar z = 4\n"
	if got != want {
		t.Errorf("result:\n%s\nwant:\n%s", got, want)
	}
}

func TestPlanFixesFormatting(t *testing.T) {
	const file = "/virtual/a.go"
	src := "package a\n\nfunc f() {\n\tx := 1\n\t_ = x\n}\n"
	read := func(string) ([]byte, error) { return []byte(src), nil }
	at := strings.Index(src, "\t_ = x")

	// An insertion with sloppy indentation is gofmt'ed.
	plan := finding.PlanFixes([]finding.Finding{withFix("indent", edit(file, at, at, "if x > 0 {\nx++\n}\n"))}, finding.PlanOptions{ReadFile: read})
	want := "package a\n\nfunc f() {\n\tx := 1\n\tif x > 0 {\n\t\tx++\n\t}\n\t_ = x\n}\n"
	if got := string(plan.Files[file]); got != want {
		t.Errorf("formatted:\n%q\nwant\n%q", got, want)
	}

	// A result that does not parse is not written: each fix editing the
	// file is skipped, those of other files are kept, and a fix editing
	// both files is skipped in both.
	const other = "/virtual/b.go"
	fine := edit(other, at, at, "x++\n")
	plan = finding.PlanFixes([]finding.Finding{
		withFix("broken", edit(file, at, at, "if {\n")),
		withFix("fine", fine),
		withFix("both", edit(other, len(src)-1, len(src)-1, "\nvar y = 2\n"), edit(file, 0, 0, "// x\n")),
	}, finding.PlanOptions{ReadFile: read})
	if _, ok := plan.Files[file]; ok || len(plan.Files) != 1 || !slices.Equal(plan.Applied, []bool{false, true, false}) || len(plan.Skipped) != 2 ||
		!strings.HasPrefix(plan.Skipped[0].Reason, "the fixed file would not parse: /virtual/a.go:") {
		t.Errorf("unparsable: files %q, applied %v, skipped %v", plan.Files, plan.Applied, plan.Skipped)
	}
	if got, want := string(plan.Files[other]), src[:at]+"\tx++\n"+src[at:]; got != want {
		t.Errorf("the other file:\n%q\nwant\n%q", got, want)
	}
}

// A file whose content is not what the analyzers read (an editor saved it
// during the run) is Stale, its fixes are skipped, and nothing is written:
// the fixes' offsets are of the old text. ctrllint -fix once applied them
// to the new text, at the wrong places, and reported success.
func TestPlanFixesAgainstAnalysedContent(t *testing.T) {
	dir := t.TempDir()
	const src = "package a\n\nfunc f() {\n\tbad()\n}\n"
	a, b := filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	digests := map[string]finding.Digest{a: sha256.Sum256([]byte(src)), b: sha256.Sum256([]byte(src))}
	analysed := func(f string) (finding.Digest, bool) { d, ok := digests[f]; return d, ok }
	at := strings.Index(src, "bad")
	fixes := []finding.Finding{withFix("a", edit(a, at, at+3, "good")), withFix("b", edit(b, at, at+3, "good"))}

	saved := "// saved by an editor\n" + src
	if err := os.WriteFile(a, []byte(saved), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := finding.PlanFixes(fixes, finding.PlanOptions{Analysed: analysed})
	if !slices.Equal(plan.Stale, []string{a}) || !slices.Equal(plan.Applied, []bool{false, true}) {
		t.Errorf("stale %v, applied %v", plan.Stale, plan.Applied)
	}
	if err := plan.Write(); err == nil || !strings.Contains(err.Error(), "a.go changed since it was analysed; nothing was written") {
		t.Errorf("Write: %v", err)
	}
	for f, want := range map[string]string{a: saved, b: src} {
		if got, _ := os.ReadFile(f); string(got) != want {
			t.Errorf("%s: %q, want %q", f, got, want)
		}
	}

	// A file whose analysed content is not known is not edited.
	delete(digests, b)
	plan = finding.PlanFixes(fixes[1:], finding.PlanOptions{Analysed: analysed})
	if len(plan.Files) != 0 || len(plan.Skipped) != 1 || !strings.Contains(plan.Skipped[0].Reason, "as analysed is not known") {
		t.Errorf("unknown content: files %q, skipped %v", plan.Files, plan.Skipped)
	}
}

// A file saved after the new contents were staged, just before they
// replace the old, is kept, and nothing is written.
func TestFixWriteRechecksBeforeRename(t *testing.T) {
	dir := t.TempDir()
	const src = "package a\n\nvar x = 1\n"
	a, b := filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := strings.Index(src, "1")
	plan := finding.PlanFixes([]finding.Finding{withFix("a", edit(a, at, at+1, "2")), withFix("b", edit(b, at, at+1, "3"))}, finding.PlanOptions{})
	saved := "package a\n\nvar x = 9\n"
	finding.SetStagedHook(t, func() {
		if err := os.WriteFile(b, []byte(saved), 0o644); err != nil {
			t.Error(err)
		}
	})
	if err := plan.Write(); err == nil || !strings.Contains(err.Error(), "b.go changed since it was analysed") {
		t.Errorf("Write: %v", err)
	}
	for f, want := range map[string]string{a: src, b: saved} {
		if got, _ := os.ReadFile(f); string(got) != want {
			t.Errorf("%s: %q, want %q", filepath.Base(f), got, want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

// fixWriteHelper is set in the environment of the test binary re-run by
// TestFixWriteFailureKeepsOriginal: the run that writes under a file size
// limit.
const fixWriteHelper = "CTRLLINT_TEST_FIX_WRITE_UNDER_LIMIT"

// A write that fails part-way (here: a file size limit, as a full disk
// or a quota would) must leave the original byte for byte. os.WriteFile
// truncated it first and left it cut off.
func TestFixWriteFailureKeepsOriginal(t *testing.T) {
	if file := os.Getenv(fixWriteHelper); file != "" {
		writeUnderLimit(t, file)
		return
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "big.go")
	orig := []byte("package big\n\n" + strings.Repeat("// filler line of a large generated-looking file\n", 8000) + "var x = 1\n")
	if err := os.WriteFile(file, orig, 0o640); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFixWriteFailureKeepsOriginal$", "-test.v")
	cmd.Env = append(os.Environ(), fixWriteHelper+"="+file)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "write failed as expected") {
		t.Fatalf("the helper's write did not fail under the limit:\n%s", out)
	}
	if !strings.Contains(string(out), "the file is unchanged") {
		t.Errorf("the error does not say the file is unchanged:\n%s", out)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, orig) {
		t.Errorf("after a failed write the file has %d bytes, want the original %d", len(got), len(orig))
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

// writeUnderLimit plans a fix that doubles file and writes it with the
// process's file size limit at half the original's size.
func writeUnderLimit(t *testing.T, file string) {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(src, []byte("var x"))
	read := func(string) ([]byte, error) { return src, nil }
	filler := string(src[bytes.Index(src, []byte("//")):at])
	plan := finding.PlanFixes([]finding.Finding{withFix("grow", edit(file, at, at, filler))}, finding.PlanOptions{ReadFile: read})
	testanalyzers.LimitFileSize(t, uint64(len(src)/2))
	err = plan.Write()
	if err == nil {
		t.Fatal("write of a file twice the size limit succeeded")
	}
	fmt.Println("write failed as expected:", err)
}

// Write keeps each file's permissions, writes through symbolic links, and
// refuses a file saved since the plan was made.
func TestFixWriteModesLinksAndChangedFiles(t *testing.T) {
	dir := t.TempDir()
	const src = "package a\n\nvar x = 1\n"
	at := strings.Index(src, "1")
	plain := filepath.Join(dir, "plain.go")
	target := filepath.Join(dir, "target.go")
	link := filepath.Join(dir, "link.go")
	for name, mode := range map[string]os.FileMode{plain: 0o600, target: 0o755} {
		if err := os.WriteFile(name, []byte(src), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(name, mode) // past the umask
	}
	if err := os.Symlink("target.go", link); err != nil {
		t.Fatal(err)
	}
	plan := finding.PlanFixes([]finding.Finding{withFix("p", edit(plain, at, at+1, "2")), withFix("l", edit(link, at, at+1, "3"))}, finding.PlanOptions{})
	if err := plan.Write(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]struct {
		text string
		mode os.FileMode
	}{plain: {"var x = 2", 0o600}, target: {"var x = 3", 0o755}} {
		got, _ := os.ReadFile(name)
		st, _ := os.Stat(name)
		if !strings.Contains(string(got), want.text) || st.Mode().Perm() != want.mode {
			t.Errorf("%s: %q mode %v, want %q mode %v", filepath.Base(name), got, st.Mode().Perm(), want.text, want.mode)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.go is no longer a symbolic link: %v %v", st, err)
	}

	// Saved between planning and writing: nothing is written.
	plan = finding.PlanFixes([]finding.Finding{withFix("p", edit(plain, at, at+1, "4"))}, finding.PlanOptions{})
	saved := strings.Replace(src, "x", "y", 1)
	if err := os.WriteFile(plain, []byte(saved), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := plan.Write(); err == nil || !strings.Contains(err.Error(), "changed since it was analysed") {
		t.Errorf("write over a changed file: %v", err)
	}
	if got, _ := os.ReadFile(plain); string(got) != saved {
		t.Errorf("changed file overwritten: %q", got)
	}
}
