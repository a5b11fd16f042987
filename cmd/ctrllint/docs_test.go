package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFlagsDocumented: every flag of the command (its -h) is in
// docs/README.md's table of flags, so a new flag cannot ship undocumented.
// Flags that share their usage text are aliases (-V, -version): one of them
// in the table is enough. Analyzer options (-NAME.FLAG) are documented on
// their analyzer's page (analyzers' TestOptionsDocumented).
func TestFlagsDocumented(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"-h"}, &stdout, &stderr, defaultSuite()); code != exitClean {
		t.Fatalf("-h: exit %d\n%s", code, stderr.String())
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder // the rows of docs/README.md's tables whose first cell is a flag
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "| `-") {
			table.WriteString(line + "\n")
		}
	}
	documented := func(name string) bool {
		return regexp.MustCompile("`-" + regexp.QuoteMeta(name) + "[` =]").MatchString(table.String())
	}
	// PrintDefaults: "  -name type" then the usage, indented, on the next line
	// (on the same line for a boolean flag with a one-letter name).
	flagLine := regexp.MustCompile(`^  -(\S+)(?:\s+\S+)?(?:\t(.*))?$`)
	byUsage := map[string][]string{}
	var order []string
	lines := strings.Split(stderr.String(), "\n")
	for i, line := range lines {
		m := flagLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name, usage := m[1], m[2]
		if usage == "" && i+1 < len(lines) {
			usage = strings.TrimSpace(lines[i+1])
		}
		if strings.Contains(name, ".") {
			continue // an analyzer's option
		}
		if _, ok := byUsage[usage]; !ok {
			order = append(order, usage)
		}
		byUsage[usage] = append(byUsage[usage], name)
	}
	if len(order) < 10 {
		t.Fatalf("found %d flags in -h's output, which has changed form:\n%s", len(order), stderr.String())
	}
	for _, usage := range order {
		names := byUsage[usage]
		ok := false
		for _, n := range names {
			ok = ok || documented(n)
		}
		if !ok {
			t.Errorf("flag -%s (%s) is not in docs/README.md's table of flags", strings.Join(names, ", -"), usage)
		}
	}
}

// TestCommandsDocumented: README.md names every command ctrllint -h lists
// (a newcomer reads it first) and links the pages that set up each route
// besides the command line: editors and golangci-lint. docs/editors.md
// documents every command.
func TestCommandsDocumented(t *testing.T) {
	root := filepath.Join("..", "..")
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	readme, editors := read("README.md"), read(filepath.Join("docs", "editors.md"))
	for _, c := range commands {
		if !strings.Contains(readme, "`ctrllint "+c.name+"`") {
			t.Errorf("README.md does not name `ctrllint %s`", c.name)
		}
		if !strings.Contains(editors, "ctrllint "+c.name) {
			t.Errorf("docs/editors.md does not document ctrllint %s", c.name)
		}
	}
	for _, page := range []string{"docs/editors.md", "docs/golangci-lint.md"} {
		if !strings.Contains(readme, "]("+page+")") {
			t.Errorf("README.md does not link %s", page)
		}
	}
}

// TestNoUnpublishedInstalls: no page tells the reader to go install or go
// get a module of this repository @latest as if it worked: none is
// published, so the module proxy serves nothing for it. A line may show
// the command for later if it says so ("once" a release is published).
// CHANGELOG.md is history and is not checked.
func TestNoUnpublishedInstalls(t *testing.T) {
	root := filepath.Join("..", "..")
	install := regexp.MustCompile(`go (install|get) github\.com/ctrllint/ctrllint\S*@latest`)
	var pages []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") && d.Name() != "CHANGELOG.md" {
			pages = append(pages, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 10 {
		t.Fatalf("found %d Markdown pages, want the repository's: %q", len(pages), pages)
	}
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := install.FindString(line); m != "" && !strings.Contains(line, "once") {
				t.Errorf("%s:%d: %q fails until a release is published: show the way from a clone, or say on the line that it works once one is", page, i+1, m)
			}
		}
	}
}
