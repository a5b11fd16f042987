package finding

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	// Stale lists the files whose content is no longer what the
	// analysers read (saved during the run): Write refuses to write
	// anything, since the fixes' offsets no longer fit them.
	Stale []string

	// base holds the content each file of Files was planned on, which
	// Write checks is still there.
	base map[string][]byte
	// moved maps each file of Files from base to its new content, for
	// Relocate.
	moved map[string]*relocation
}

// SkippedFix is a fix that was not applied.
type SkippedFix struct {
	Finding *Finding
	Reason  string
}

func (s SkippedFix) String() string {
	return fmt.Sprintf("%s: skipped fix %q of %s: %s", s.Finding.Pos, s.Finding.Fixes[0].Message, s.Finding.Analyzer, s.Reason)
}

// PlanOptions are PlanFixes' settings; the zero value plans every fix on
// the files as they are on disk now.
type PlanOptions struct {
	// ReadFile reads the current content of a file; nil means os.ReadFile.
	ReadFile func(string) ([]byte, error)
	// Analysed, if not nil, gives the digest of each file's content as
	// the analyzers read it, which the fixes' offsets refer to: a file
	// read now with other content (an editor saved it during the run) is
	// Stale, and a file whose analysed content is unknown is not edited.
	Analysed func(file string) (Digest, bool)
	// InModule confines the fixes to their modules: a file whose real
	// path (through symbolic links) is outside the real path of its
	// module's root (the nearest directory above the file as named that
	// holds a go.mod) is not edited. A link in the module to a file
	// elsewhere (a shared checkout, another module, the module cache)
	// would otherwise have -fix rewrite what the module does not own.
	InModule bool
}

// A Digest is the SHA-256 of a file's content.
type Digest = [sha256.Size]byte

// PlanFixes combines the first suggested fix of each finding.
//
// The edits of one fix were already checked not to overlap by the checker
// (driverutil.ValidateFixes). A fix is all-or-nothing: if any of its edits overlaps an edit already
// accepted (in the findings' order), the whole fix is skipped, since half
// a fix usually does not compile. An edit identical to an accepted one
// (same range, same text) is not a conflict: two findings that both need
// the same import added must add it once.
//
// Results are gofmt'ed, so fixes need not get indentation right. A file
// whose fixes together do not parse is not changed: its fixes are skipped.
func PlanFixes(findings []Finding, opts PlanOptions) *FixPlan {
	readFile, analysed := opts.ReadFile, opts.Analysed
	if readFile == nil {
		readFile = os.ReadFile
	}
	plan := &FixPlan{Files: make(map[string][]byte), Applied: make([]bool, len(findings)), base: make(map[string][]byte)}
	stale := make(map[string]bool)
	accepted := make(map[string][]edit)
	applied := make(map[int][]fileEdit)
	sizes := make(map[string]int)
	contents := make(map[string][]byte)
	sizeOf := func(file string) (int, error) {
		if n, ok := sizes[file]; ok {
			return n, nil
		}
		if opts.InModule {
			if err := inModule(file); err != nil {
				return 0, err
			}
		}
		b, err := readFile(file)
		if err != nil {
			return 0, err
		}
		if analysed != nil {
			want, ok := analysed(file)
			if !ok {
				return 0, fmt.Errorf("the content of %s as analysed is not known", file)
			}
			if want != sha256.Sum256(b) {
				stale[file] = true
			}
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
		if reason == "" && slices.ContainsFunc(addFiles, func(f string) bool { return stale[f] }) {
			reason = "the file changed since it was analysed"
		}
		if reason != "" {
			plan.Skipped = append(plan.Skipped, SkippedFix{Finding: f, Reason: reason})
			continue
		}
		for j, e := range add {
			if !slices.Contains(accepted[addFiles[j]], e) {
				accepted[addFiles[j]] = append(accepted[addFiles[j]], e)
			}
			applied[i] = append(applied[i], fileEdit{addFiles[j], e})
		}
		plan.Applied[i] = true
	}
	plan.Stale = slices.Sorted(maps.Keys(stale))

	// A file whose fixes together do not parse keeps its content and
	// every fix editing it is skipped; a fix may edit several files, so
	// the others are built again without it.
	for {
		built, broken, err := plan.build(findings, applied, contents)
		if broken == "" {
			plan.moved = built
			for file, r := range built {
				plan.Files[file] = r.written
				plan.base[file] = contents[file]
			}
			return plan
		}
		for i, es := range applied {
			if slices.ContainsFunc(es, func(e fileEdit) bool { return e.file == broken }) {
				plan.Applied[i] = false
				plan.Skipped = append(plan.Skipped, SkippedFix{Finding: &findings[i], Reason: fmt.Sprintf("the fixed file would not parse: %v", err)})
				delete(applied, i)
			}
		}
	}
}

type edit struct {
	start, end int
	text       string
}

type fileEdit struct {
	file string
	edit
}

// build applies the edits of the applied fixes to their files and
// gofmts the results. It returns the files that change, each with how
// it changes, or the first file (by name) that would not parse, and why.
func (p *FixPlan) build(findings []Finding, applied map[int][]fileEdit, contents map[string][]byte) (map[string]*relocation, string, error) {
	perFile := make(map[string][]edit)
	for i := range findings { // in the findings' order
		for _, e := range applied[i] {
			if !slices.Contains(perFile[e.file], e.edit) {
				perFile[e.file] = append(perFile[e.file], e.edit)
			}
		}
	}
	built := make(map[string]*relocation)
	for _, file := range slices.Sorted(maps.Keys(perFile)) {
		es := perFile[file]
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
		spliced := out.Bytes()
		if _, err := parser.ParseFile(token.NewFileSet(), file, spliced, parser.ParseComments); err != nil {
			return nil, file, err
		}
		res := spliced
		if formatted, err := format.Source(spliced); err == nil {
			res = formatted
		}
		if !bytes.Equal(res, src) {
			built[file] = &relocation{edits: es, spliced: spliced, written: res}
		}
	}
	return built, "", nil
}

// OutsideModule is in the reason a fix is skipped under
// PlanOptions.InModule.
const OutsideModule = "outside its module"

// inModule returns why file may not be edited under PlanOptions.InModule,
// or nil.
func inModule(file string) error {
	root := filepath.Dir(file)
	for {
		if st, err := os.Stat(filepath.Join(root, "go.mod")); err == nil && st.Mode().IsRegular() {
			break
		}
		up := filepath.Dir(root)
		if up == root {
			return nil // GOPATH mode: no module to confine it to
		}
		root = up
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(file)
	if err != nil {
		return err
	}
	if r, err := filepath.Rel(realRoot, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is a symbolic link to %s, %s (%s)", filepath.Base(file), real, OutsideModule, root)
	}
	return nil
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
// Nothing is written when a file is Stale, or when a file's content is no
// longer what the plan was computed from (saved since): the fixes'
// offsets would no longer fit. That is checked once more just before the
// renames, so that a save while the new contents were being written is
// kept too.
func (p *FixPlan) Write() error {
	if len(p.Stale) > 0 {
		return fmt.Errorf("writing fixes: %s changed since it was analysed; nothing was written, run again", strings.Join(p.Stale, ", "))
	}
	files := slices.Sorted(maps.Keys(p.Files))
	type staged struct{ name, tmp, dst string }
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
		done = append(done, staged{f, tmp, dst})
	}
	if stagedHook != nil {
		stagedHook()
	}
	for _, s := range done {
		if err := unchanged(s.name, s.dst, p.base[s.name]); err != nil {
			cleanup()
			return err
		}
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

// stagedHook, when set (by a test), runs once the new contents are
// staged, before they are checked and renamed into place.
var stagedHook func()

// unchanged checks that dst, the file name resolves to, still holds base
// (nil: nothing to check).
func unchanged(name, dst string, base []byte) error {
	if base == nil {
		return nil
	}
	cur, err := os.ReadFile(dst)
	if err != nil {
		return fmt.Errorf("writing fixes: %v", err)
	}
	if !bytes.Equal(cur, base) {
		return fmt.Errorf("writing fixes: %s changed since it was analysed; nothing was written, run again", name)
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
	if err := unchanged(name, dst, base); err != nil {
		return "", "", err
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
