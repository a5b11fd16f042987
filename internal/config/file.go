package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	yamlnode "go.yaml.in/yaml/v3"
	"golang.org/x/tools/go/analysis"
	"sigs.k8s.io/yaml"

	"github.com/ctrllint/ctrllint/internal/regular"
)

// FileNames are the names a configuration file is found by, in the order
// they are looked for in each directory.
var FileNames = []string{".ctrllint.yml", ".ctrllint.yaml"}

// File is a configuration file, read and checked.
type File struct {
	// Path is the file's absolute path.
	Path string
	// Dir is its directory, the base of exclude-paths.
	Dir string
	Settings
}

// Find looks for a configuration file in dir, then in each parent
// directory up to the root, and returns the first found ("" for none). Both
// names in one directory is an error: which one is meant is not clear.
// A name found is any directory entry, whatever it is (a directory, a named
// pipe, a symbolic link to nothing, a file that cannot be read): Load
// reports what is wrong with it. Skipping it would run every analyzer with
// its defaults, as if there were no file, or with a file further up.
func Find(dir string) (string, error) {
	for {
		var found []string
		for _, name := range FileNames {
			p := filepath.Join(dir, name)
			_, err := os.Lstat(p)
			switch {
			case err == nil:
				found = append(found, p)
			case !errors.Is(err, os.ErrNotExist):
				return "", err // unreadable: never skipped silently
			}
		}
		switch len(found) {
		case 1:
			return found[0], nil
		case 2:
			return "", fmt.Errorf("both %s and %s: keep one", found[0], FileNames[1])
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Load reads and checks the configuration file at path (absolute) against
// the analyzers in all. name is how messages call the file. Every problem
// is reported, one error each, as "name:line: problem" (the line where the
// YAML library gives one), in the order of the file. The file is one YAML
// document: a second one is an error at the line where it starts, not
// ignored (see documents). An empty file, or one of comments only, is an
// empty configuration. A file that cannot be read, or is not a regular
// file after following symbolic links (a directory, a named pipe,
// /dev/stdin on a terminal or pipe, a symbolic link to nothing), is an
// error naming it, returned at once: a named pipe is never opened to wait
// for a writer (package regular).
func Load(path, name string, all []*analysis.Analyzer) (*File, error) {
	data, err := regular.ReadFile(path)
	if err != nil {
		return nil, err
	}
	second, content := documents(data)
	// Nothing but comments, blank lines and document markers is an empty
	// configuration, however they are laid out.
	js := []byte("null")
	if content {
		// Duplicate keys are errors. The YAML library reads the first
		// document; its syntax errors come first, as the more precise
		// account of a --- that ends a bracket or quote left open.
		if js, err = yaml.YAMLToJSONStrict(data); err != nil {
			return nil, yamlError(name, err)
		}
	}
	if second > 0 {
		// Another document would be ignored, settings, syntax errors and
		// all; and an empty first one would make the file a silent "no
		// settings".
		return nil, fmt.Errorf("%s:%d: a second YAML document: a configuration file is one document (only the first would be read)", name, second)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(js, &fields); err != nil {
		return nil, fmt.Errorf("%s: want a map of settings (enable, disable, exclude-paths, severity, analyzer options), not %s", name, kindOf(js))
	}
	// An empty document is null: an empty configuration.
	s, problems := Decode(fields, all, Command)
	if len(problems) > 0 {
		lines := lineFinder(data)
		type located struct {
			line int
			msg  string
		}
		var ls []located
		for _, p := range problems {
			ls = append(ls, located{lines(p.Path), p.Msg})
		}
		slices.SortStableFunc(ls, func(a, b located) int { return a.line - b.line })
		var errs []error
		for _, l := range ls {
			if l.line > 0 {
				errs = append(errs, fmt.Errorf("%s:%d: %s", name, l.line, l.msg))
			} else {
				errs = append(errs, fmt.Errorf("%s: %s", name, l.msg))
			}
		}
		return nil, errors.Join(errs...)
	}
	return &File{Path: path, Dir: filepath.Dir(path), Settings: s}, nil
}

// documents finds where a second YAML document starts in data: the line,
// 0 for none; and reports whether any line holds content (other than blank
// lines, comments and document markers). A --- line may start the one
// document, a ... line end it, and comments may come before and after it.
//
// Lines are enough: a line starting with --- or ... followed by a space, a
// tab or its end is a document marker wherever it is (YAML forbids one
// inside a scalar, and the YAML library takes it as a marker). A document
// starts at a --- line, or at content outside any document: at the top,
// or after a ... line, which the YAML library does not accept but must not
// be taken for the end of the settings.
func documents(data []byte) (second int, content bool) {
	const (
		before = iota // no document yet
		open          // in the first document
		ended         // after the first document's ... line
	)
	state := before
	text := strings.TrimPrefix(string(data), "\ufeff")
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case isMarker(line, "---"):
			if state != before {
				return i + 1, content
			}
			state = open
			content = content || !isBlank(line[3:]) // --- {enable: [x]}
		case isMarker(line, "..."):
			if state == open {
				state = ended
			}
		case isBlank(line):
		case state == ended:
			return i + 1, content
		default:
			if line[0] != '%' { // a directive (%YAML 1.1) comes before its ---
				state = open
			}
			content = true
		}
	}
	return 0, content
}

// isMarker reports whether line is the document marker m (--- or ...),
// alone or followed by a space or tab and more.
func isMarker(line, m string) bool {
	rest, ok := strings.CutPrefix(line, m)
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t')
}

// isBlank reports whether s is spaces, tabs and at most a comment.
func isBlank(s string) bool {
	s = strings.TrimLeft(s, " \t")
	return s == "" || s[0] == '#'
}

func kindOf(js []byte) string {
	switch strings.TrimSpace(string(js))[0] {
	case '[':
		return "a list"
	case '"':
		return "a string"
	}
	return "a scalar"
}

// yamlLine is how the YAML library places a problem.
var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

// yamlError turns the YAML library's errors (syntax, duplicate keys) into
// "name:line: problem" lines.
func yamlError(name string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	var errs []error
	for _, m := range yamlLine.FindAllStringSubmatch(msg, -1) {
		errs = append(errs, fmt.Errorf("%s:%s: %s", name, m[1], m[2]))
	}
	if len(errs) == 0 {
		return fmt.Errorf("%s: %s", name, msg)
	}
	return errors.Join(errs...)
}

// lineFinder returns a function that finds the line of a Problem's path in
// the YAML source: the line of the deepest key or list item of the path
// that exists, 0 if none does.
func lineFinder(data []byte) func(path []string) int {
	var doc yamlnode.Node
	if yamlnode.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return func([]string) int { return 0 }
	}
	return func(path []string) int {
		n, line := doc.Content[0], 0
		for _, p := range path {
			next := (*yamlnode.Node)(nil)
			switch n.Kind {
			case yamlnode.MappingNode:
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == p {
						line, next = n.Content[i].Line, n.Content[i+1]
					}
				}
			case yamlnode.SequenceNode:
				if i, err := strconv.Atoi(p); err == nil && i >= 0 && i < len(n.Content) {
					next = n.Content[i]
					line = next.Line
				}
			}
			if next == nil {
				break
			}
			n = next
		}
		return line
	}
}
