package load

import (
	"cmp"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Problem is one reason packages could not be loaded or type-checked,
// as the go command or the type checker phrased it.
type Problem struct {
	Package string // import path or pattern it concerns, if known
	File    string // absolute when known; empty when the problem has no position
	Line    int
	Column  int
	Msg     string
}

func (p Problem) String() string {
	switch {
	case p.File == "":
		return p.Msg
	case p.Line == 0:
		return p.File + ": " + p.Msg
	case p.Column == 0:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Msg)
}

// Error means some packages could not be loaded or type-checked.
// It carries the loader's own messages, which say what to fix, rather
// than a summary that would send the user to rerun go build.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

var couldNotImport = regexp.MustCompile(`^could not import (\S+) `)

// Problems turns a package's errors into problems, preferring the
// go command's explanation of a broken import ("no required module
// provides package ...") to the type checker's echo of it.
func Problems(p *packages.Package, base string) []Problem {
	var out []Problem
	hasTypeErrors, hasSyntaxErrors := false, false
	for _, e := range p.Errors {
		if e.Kind == packages.TypeError || e.Kind == packages.ParseError {
			hasTypeErrors = true
		}
		hasSyntaxErrors = hasSyntaxErrors || e.Kind == packages.ParseError
	}
	syntaxLines := make(map[string]bool)
	for _, e := range p.Errors {
		if hasSyntaxErrors && e.Kind == packages.TypeError {
			// go build stops at syntax errors: what the type checker
			// says of a tree the parser had to patch ("declared and
			// not used" of a variable whose use was cut off) is noise.
			continue
		}
		if e.Kind == packages.ParseError {
			// The parser's recovery errors on a line after its first
			// one echo it, as go/parser's own default mode knows.
			file, line, _ := splitPos(e.Pos)
			at := fmt.Sprintf("%s:%d", file, line)
			if line > 0 && syntaxLines[at] {
				continue
			}
			syntaxLines[at] = true
		}
		if e.Kind == packages.TypeError {
			if m := couldNotImport.FindStringSubmatch(e.Msg); m != nil {
				if dep := p.Imports[m[1]]; dep != nil && len(dep.Errors) > 0 {
					continue // reported below, from the dependency itself
				}
			}
		}
		if isBuildOutput(e) && hasTypeErrors {
			continue // the compiler's copy of the type errors
		}
		out = append(out, errorProblems(p.PkgPath, e, base)...)
	}
	// Without NeedDeps, imports are stubs, but they carry the go
	// command's errors for the imported package.
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		dep := p.Imports[path]
		for _, e := range dep.Errors {
			out = append(out, errorProblems(dep.PkgPath, e, base)...)
		}
	}
	return out
}

// Failure is the one account of packages that could not be loaded or
// type-checked, whichever way they were loaded: each one's problems, and,
// for those whose own errors and their imports' say nothing (a
// dependency further down failed to build), the errors anywhere in their
// dependency graph, which graphOf lists. It is nil when failed is empty.
func Failure(failed []*packages.Package, base string, graphOf func([]*packages.Package) []*packages.Package) *Error {
	var probs []Problem
	var unexplained []*packages.Package
	for _, p := range failed {
		n := len(probs)
		probs = append(probs, Problems(p, base)...)
		if len(probs) == n {
			unexplained = append(unexplained, p)
		}
	}
	if len(unexplained) > 0 {
		probs = append(probs, explainGraph(graphOf(unexplained), unexplained, base)...)
	}
	if len(probs) == 0 {
		return nil
	}
	return &Error{Problems: sortProblems(probs)}
}

// explainGraph reports the errors of every package in graph, the listed
// dependency graph of pkgs; when it holds none, it says only that pkgs
// could not be type-checked.
func explainGraph(graph, pkgs []*packages.Package, base string) []Problem {
	var out []Problem
	packages.Visit(graph, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			out = append(out, errorProblems(p.PkgPath, e, base)...)
		}
	})
	if len(out) == 0 {
		for _, p := range pkgs {
			out = append(out, Problem{Package: p.ID, Msg: fmt.Sprintf("package %s could not be type-checked", p.ID)})
		}
	}
	return out
}

// isBuildOutput reports whether e is the go command relaying compiler
// output ("# pkg\nfile:line:col: msg...").
func isBuildOutput(e packages.Error) bool {
	return e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ")
}

var posPrefix = regexp.MustCompile(`^(.+?\.go):(\d+)(?::(\d+))?: (.*)$`)

func errorProblems(pkg string, e packages.Error, base string) []Problem {
	if isBuildOutput(e) {
		// Compiler output: one problem per positioned line, paths
		// relative to the go command's directory.
		var out []Problem
		lines := strings.Split(e.Msg, "\n")[1:]
		for i := 0; i < len(lines); i++ {
			line := lines[i]
			if strings.TrimSpace(line) == "" {
				continue
			}
			m := posPrefix.FindStringSubmatch(line)
			if m == nil {
				if len(out) > 0 {
					out[len(out)-1].Msg += "\n" + line
				} else {
					out = append(out, Problem{Package: pkg, Msg: line})
				}
				continue
			}
			pr := Problem{Package: pkg, File: absPath(base, m[1]), Msg: m[4]}
			pr.Line, _ = strconv.Atoi(m[2])
			pr.Column, _ = strconv.Atoi(m[3])
			out = append(out, pr)
		}
		return out
	}
	pr := Problem{Package: pkg, Msg: strings.TrimSpace(e.Msg)}
	if e.Pos != "" && e.Pos != "-" {
		pr.File, pr.Line, pr.Column = splitPos(e.Pos)
		pr.File = absPath(base, pr.File)
	}
	return []Problem{pr}
}

// splitPos splits "file:line:col" or "file:line" (file may contain ':').
func splitPos(s string) (file string, line, col int) {
	file = s
	var nums []int
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(file[i+1:])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		file = file[:i]
	}
	switch len(nums) {
	case 1:
		line = nums[0]
	case 2:
		line, col = nums[0], nums[1]
	}
	return file, line, col
}

func absPath(base, file string) string {
	if file == "" || filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(base, file)
}

func sortProblems(ps []Problem) []Problem {
	slices.SortFunc(ps, func(x, y Problem) int {
		return cmp.Or(
			cmp.Compare(x.File, y.File),
			cmp.Compare(x.Line, y.Line),
			cmp.Compare(x.Column, y.Column),
			cmp.Compare(x.Msg, y.Msg),
		)
	})
	return slices.CompactFunc(ps, func(x, y Problem) bool {
		return x.File == y.File && x.Line == y.Line && x.Column == y.Column && x.Msg == y.Msg
	})
}
