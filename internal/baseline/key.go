package baseline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// Hash is the hash of an entry: of the message with the line numbers it
// cites left out, and of the finding's line of code with every
// whitespace character removed, so that re-indenting the code or gofmt
// re-aligning a comment keeps it; hex, 64 bits (the hash only tells
// apart findings of one analyzer in one function).
func Hash(message, line string) string { return hashOf(withoutLines(message), line) }

// legacyHash is Hash as baselines written before lists of lines were left
// out computed it ("the paths ending at lines 175 and 181" kept its
// numbers): their entries still match.
func legacyHash(message, line string) string {
	return hashOf(legacyLineRef.ReplaceAllStringFunc(message, trimDigits), line)
}

func hashOf(message, line string) string {
	code := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, line)
	sum := sha256.Sum256([]byte(message + "\x00" + code))
	return hex.EncodeToString(sum[:8])
}

// lineRef matches where messages cite other lines of code: "after its
// Start (line 108)", "read by Get at line 87", "the paths ending at lines
// 175, 181 and 190", "written at c.go:31".
var lineRef = regexp.MustCompile(`\blines? \d+(?:(?:, | and |, and )\d+)*|\.go:\d+`)

// legacyLineRef is lineRef before lists of lines.
var legacyLineRef = regexp.MustCompile(`\bline \d+|\.go:\d+`)

// withoutLines is message without the numbers of the lines it cites,
// which move when lines are added above them, as the finding's own line
// does.
func withoutLines(message string) string {
	return lineRef.ReplaceAllStringFunc(message, func(ref string) string {
		return digits.ReplaceAllString(ref, "")
	})
}

var digits = regexp.MustCompile(`\d+`)

func trimDigits(ref string) string { return strings.TrimRight(ref, "0123456789") }

// keyer computes the entries of findings relative to dir, reading and
// parsing each file with findings once.
type keyer struct {
	dir   string // the baseline file's directory, symbolic links resolved
	files map[string]*source
	dirs  map[string]string // a finding's directory, links resolved
}

// source is one file with findings.
type source struct {
	rel   string // slash path relative to the baseline's directory
	text  []byte
	file  *ast.File // nil when it does not parse at all
	tfile *token.File
}

func newKeyer(dir string) (*keyer, error) {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	return &keyer{dir: d, files: make(map[string]*source), dirs: make(map[string]string)}, nil
}

// entry is f's entry, with a count of 1.
func (k *keyer) entry(f *finding.Finding) (Entry, error) {
	e := Entry{Analyzer: f.Analyzer, Message: f.Message, Count: 1}
	if f.Pos.File == "" {
		// No position (an analyzer reported token.NoPos): the analyzer
		// and message are all there is to tell it apart.
		e.Hash, e.legacy = Hash(f.Message, ""), legacyHash(f.Message, "")
		return e, nil
	}
	src, err := k.source(f.Pos.File)
	if err != nil {
		return e, err
	}
	off := f.Pos.Offset
	if off < 0 || off > len(src.text) {
		return e, fmt.Errorf("%s: finding at offset %d beyond the end of the file: changed since it was analysed; run again", f.Pos.File, off)
	}
	e.File = src.rel
	e.Function = enclosingFunc(src, off)
	e.Hash, e.legacy = Hash(f.Message, lineAt(src.text, off)), legacyHash(f.Message, lineAt(src.text, off))
	return e, nil
}

func (k *keyer) source(file string) (*source, error) {
	if s, ok := k.files[file]; ok {
		return s, nil
	}
	text, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	rel, err := k.rel(file)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	// A file that does not parse in full still gives the functions
	// before its error; one that does not parse at all, none, and its
	// findings count as outside functions.
	f, _ := parser.ParseFile(fset, file, text, parser.SkipObjectResolution)
	s := &source{rel: rel, text: text, file: f}
	if f != nil {
		s.tfile = fset.File(f.FileStart)
	}
	k.files[file] = s
	return s, nil
}

// rel is file relative to the baseline's directory, as a slash path,
// both with symbolic links resolved so that two spellings of one
// directory give one path.
func (k *keyer) rel(file string) (string, error) {
	d := filepath.Dir(file)
	real, ok := k.dirs[d]
	if !ok {
		var err error
		if real, err = filepath.EvalSymlinks(d); err != nil {
			return "", err
		}
		k.dirs[d] = real
	}
	r, err := filepath.Rel(k.dir, filepath.Join(real, filepath.Base(file)))
	if err != nil {
		// Another volume (Windows): no relative path exists, and an
		// absolute one would tie the baseline to this machine.
		return "", fmt.Errorf("%s: not reachable from the baseline's directory %s: %v", file, k.dir, err)
	}
	return filepath.ToSlash(r), nil
}

// lineAt is the line of text holding byte offset off, without its
// newline.
func lineAt(text []byte, off int) string {
	start := bytes.LastIndexByte(text[:off], '\n') + 1
	end := len(text)
	if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
		end = off + i
	}
	return string(text[start:end])
}

// enclosingFunc names the innermost function declaration containing
// byte offset off: "F", "(T).M" or "(*T).M" (type parameters left out).
// A function literal is named by the declaration it is in, so that
// adding a closure above it does not rename it as func1 to func2 would;
// code outside any declaration (package-level variables) is "".
func enclosingFunc(src *source, off int) string {
	if src.file == nil {
		return ""
	}
	for _, d := range src.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		// Declarations do not nest, so the first that contains off is
		// the innermost one.
		start, end := src.tfile.Offset(fd.Pos()), src.tfile.Offset(fd.End())
		if start <= off && off < end {
			return funcName(fd)
		}
	}
	return ""
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	for {
		switch x := t.(type) {
		case *ast.ParenExpr:
			t = x.X
			continue
		case *ast.StarExpr:
			star = "*"
			t = x.X
			continue
		case *ast.IndexExpr: // T[K]
			t = x.X
			continue
		case *ast.IndexListExpr: // T[K, V]
			t = x.X
			continue
		}
		break
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	return "(" + star + name + ")." + fd.Name.Name
}
