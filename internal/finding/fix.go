package finding

import (
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
)

// FixPlan is the outcome of combining the suggested fixes of a set of
// findings, computed before anything is written so that callers (tests,
// a future -diff, the editor server) can inspect it.
type FixPlan struct {
	// Files maps each file to change to its new content.
	Files map[string][]byte
	// Applied[i] reports whether findings[i]'s first fix is in Files.
	Applied []bool
	// Skipped lists fixes left out, with why.
	Skipped []SkippedFix

	// base holds the content each file of Files was planned on, which
	// Write checks is still there.
	base map[string][]byte
}

// SkippedFix is a fix that was not applied.
type SkippedFix struct {
	Finding *Finding
	Reason  string
}

func (s SkippedFix) String() string {
	return fmt.Sprintf("%s: skipped fix %q of %s: %s", s.Finding.Pos, s.Finding.Fixes[0].Message, s.Finding.Analyzer, s.Reason)
}

// PlanFixes combines the first suggested fix of each finding.
//
// The edits of one fix were already checked not to overlap by the checker
// (driverutil.ValidateFixes). A fix is all-or-nothing: if any of its edits overlaps an edit already
// accepted (in the findings' order), the whole fix is skipped, since half
// a fix usually does not compile. An edit identical to an accepted one
// (same range, same text) is not a conflict: two findings that both need
// the same import added must add it once.
//
// readFile reads the current content of a file; nil means os.ReadFile.
// Results are gofmt'ed when they still parse, so fixes need not get
// indentation right; when they do not parse, the raw edit is kept so
// that the user sees what the analyzer did.
func PlanFixes(findings []Finding, readFile func(string) ([]byte, error)) *FixPlan {
	if readFile == nil {
		readFile = os.ReadFile
	}
	plan := &FixPlan{Files: make(map[string][]byte), Applied: make([]bool, len(findings)), base: make(map[string][]byte)}
	type edit struct {
		start, end int
		text       string
	}
	accepted := make(map[string][]edit)
	sizes := make(map[string]int)
	contents := make(map[string][]byte)
	sizeOf := func(file string) (int, error) {
		if n, ok := sizes[file]; ok {
			return n, nil
		}
		b, err := readFile(file)
		if err != nil {
			return 0, err
		}
		contents[file] = b
		sizes[file] = len(b)
		return len(b), nil
	}

	for i := range findings {
		f := &findings[i]
		if len(f.Fixes) == 0 {
			continue
		}
		fix := f.Fixes[0]
		var add []edit
		var addFiles []string
		reason := ""
	edits:
		for _, e := range fix.Edits {
			file := e.Pos.File
			if file == "" || e.End.File != file {
				reason = "edit has no valid file range"
				break
			}
			size, err := sizeOf(file)
			if err != nil {
				reason = err.Error()
				break
			}
			ne := edit{e.Pos.Offset, e.End.Offset, e.NewText}
			if ne.start < 0 || ne.end < ne.start || ne.end > size {
				reason = fmt.Sprintf("edit %d-%d is outside %s (%d bytes); was the file changed?", ne.start, ne.end, file, size)
				break
			}
			for _, old := range accepted[file] {
				if old == ne {
					continue edits // identical duplicate: coalesce
				}
				if overlaps(old.start, old.end, ne.start, ne.end) {
					reason = "conflicts with another fix"
					break edits
				}
			}
			add = append(add, ne)
			addFiles = append(addFiles, file)
		}
		if reason != "" {
			plan.Skipped = append(plan.Skipped, SkippedFix{Finding: f, Reason: reason})
			continue
		}
		for j, e := range add {
			if !slices.Contains(accepted[addFiles[j]], e) {
				accepted[addFiles[j]] = append(accepted[addFiles[j]], e)
			}
		}
		plan.Applied[i] = true
	}

	for file, es := range accepted {
		// Insertions before replacements at the same offset; stable, so
		// several insertions at one point keep the findings' order.
		slices.SortStableFunc(es, func(x, y edit) int {
			return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(x.end, y.end))
		})
		src := contents[file]
		var out bytes.Buffer
		last := 0
		for _, e := range es {
			out.Write(src[last:e.start])
			out.WriteString(e.text)
			last = e.end
		}
		out.Write(src[last:])
		res := out.Bytes()
		if _, err := parser.ParseFile(token.NewFileSet(), file, res, parser.ParseComments); err == nil {
			if formatted, err := format.Source(res); err == nil {
				res = formatted
			}
		}
		if !bytes.Equal(res, src) {
			plan.Files[file] = res
			plan.base[file] = src
		}
	}
	return plan
}

// overlaps reports whether edits [s1,e1) and [s2,e2) cannot both apply
// unambiguously. Touching ranges are fine; an insertion inside a replaced
// range, or two different insertions at one point (whose order would be
// arbitrary), are not.
func overlaps(s1, e1, s2, e2 int) bool {
	if s1 == e1 && s2 == e2 {
		return s1 == s2
	}
	if s1 == e1 {
		return s2 < s1 && s1 < e2
	}
	if s2 == e2 {
		return s1 < s2 && s2 < e1
	}
	return s1 < e2 && s2 < e1
}

// Write writes the planned files, keeping each file's permissions.
//
// Each file's new content goes to a temporary file in the same directory,
// which is renamed over the original only when every file has been written
// in full: a failed write (a full disk, a file size limit) leaves every
// original byte for byte, and a concurrent reader (an editor, a second
// -fix) sees either the old content or the new, never a truncated file.
// A file whose content is no longer what the plan was computed from (saved
// since) is not written: the fixes' offsets would no longer fit.
func (p *FixPlan) Write() error {
	files := make([]string, 0, len(p.Files))
	for f := range p.Files {
		files = append(files, f)
	}
	slices.Sort(files)
	type staged struct{ tmp, dst string }
	var done []staged
	cleanup := func() {
		for _, s := range done {
			os.Remove(s.tmp)
		}
	}
	for _, f := range files {
		tmp, dst, err := stage(f, p.Files[f], p.base[f])
		if err != nil {
			cleanup()
			return err
		}
		done = append(done, staged{tmp, dst})
	}
	for i, s := range done {
		if err := os.Rename(s.tmp, s.dst); err != nil {
			cleanup()
			if i > 0 {
				return fmt.Errorf("writing fixes: %v (fixes to %d earlier files were written)", err, i)
			}
			return fmt.Errorf("writing fixes: %v", err)
		}
	}
	return nil
}

// stage writes content to a new temporary file beside name, with name's
// permissions, and returns the temporary file's path and the file to
// rename it to (name, through symbolic links). base, if not nil, is the
// content the fixes were planned on.
func stage(name string, content, base []byte) (tmpName, dst string, err error) {
	// Fix the target through symbolic links: renaming over a link would
	// replace the link, not the file it points to.
	dst, err = filepath.EvalSymlinks(name)
	if err != nil {
		return "", "", fmt.Errorf("writing fixes: %v", err)
	}
	st, err := os.Stat(dst)
	if err != nil {
		return "", "", fmt.Errorf("writing fixes: %v", err)
	}
	if base != nil {
		cur, err := os.ReadFile(dst)
		if err != nil {
			return "", "", fmt.Errorf("writing fixes: %v", err)
		}
		if !bytes.Equal(cur, base) {
			return "", "", fmt.Errorf("writing fixes: %s changed since it was analysed; nothing was written, run again", name)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".ctrllint-*")
	if err != nil {
		return "", "", fmt.Errorf("writing fixes to %s: %v", name, err)
	}
	_, werr := tmp.Write(content)
	if werr == nil {
		werr = tmp.Chmod(st.Mode().Perm())
	}
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", "", fmt.Errorf("writing fixes to %s: %v; the file is unchanged", name, werr)
	}
	return tmp.Name(), dst, nil
}
