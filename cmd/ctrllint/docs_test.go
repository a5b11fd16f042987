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
