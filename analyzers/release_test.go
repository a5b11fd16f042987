package analyzers_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/semver"
)

// changelogVersions are CHANGELOG.md's release headings, newest first, as
// tags (v0.1.0), with the error of each malformed heading.
func changelogVersions(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join("..", "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile(`^## \[([^\]]+)\](?: - (\S+))?\s*$`)
	var out []string
	for i, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "## ") {
			continue
		}
		m := heading.FindStringSubmatch(line)
		switch {
		case m == nil:
			t.Errorf("CHANGELOG.md:%d: %q is not `## [X.Y.Z] - YYYY-MM-DD` or `## [Unreleased]`", i+1, line)
		case m[1] == "Unreleased":
			if len(out) > 0 {
				t.Errorf("CHANGELOG.md:%d: [Unreleased] comes first", i+1)
			}
		default:
			v := "v" + m[1]
			if !semver.IsValid(v) || semver.Canonical(v) != v {
				t.Errorf("CHANGELOG.md:%d: %q is not a semantic version X.Y.Z", i+1, m[1])
			}
			if _, err := time.Parse(time.DateOnly, m[2]); err != nil {
				t.Errorf("CHANGELOG.md:%d: release %s has no date YYYY-MM-DD: %q", i+1, m[1], m[2])
			}
			if len(out) > 0 && semver.Compare(v, out[len(out)-1]) >= 0 {
				t.Errorf("CHANGELOG.md:%d: %s is listed below %s: newest first", i+1, v, out[len(out)-1])
			}
			out = append(out, v)
		}
	}
	return out
}

// ctrllintVersions finds where a document names a version of ctrllint:
// `go install github.com/ctrllint/ctrllint/...@vX`, and a YAML `version:`
// or `rev:` within a few lines after the line naming ctrllint's module or
// repository (.custom-gcl.yml's plugin, pre-commit's repo), by line.
// golangci-lint's own `version:` comes before its plugins, so it is not
// taken; nor are versions of the runtime, a module with tags of its own.
var (
	moduleAt    = regexp.MustCompile(`github\.com/ctrllint/ctrllint(/[\w./-]*)?@(v\d+\.\d+\.\d+[\w.+-]*)`)
	yamlVersion = regexp.MustCompile(`^[\s#-]*(?:version|rev):\s*["']?(v\d+\.\d+\.\d+[\w.+-]*)`)
)

func ctrllintVersions(text string) map[int]string {
	out := map[int]string{}
	lastModule := -10
	for i, line := range strings.Split(text, "\n") {
		if m := moduleAt.FindStringSubmatch(line); m != nil && !strings.HasPrefix(m[1], "/runtime") {
			out[i+1] = m[2] // the runtime is a module of its own, with its own tags
		}
		if strings.Contains(line, "ctrllint/ctrllint") {
			lastModule = i
		}
		if m := yamlVersion.FindStringSubmatch(line); m != nil && i-lastModule <= 3 {
			out[i+1] = m[1]
		}
	}
	return out
}

// TestReleaseVersions: CHANGELOG.md's newest release is a semantic
// version, and every document that tells users to install a version of
// ctrllint names that one, so a release cannot leave the install
// instructions on the one before (docs/release.md).
func TestReleaseVersions(t *testing.T) {
	versions := changelogVersions(t)
	if len(versions) == 0 {
		t.Fatal("CHANGELOG.md has no release")
	}
	newest := versions[0]
	seen := 0
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			t.Fatal(err)
		}
		for line, v := range ctrllintVersions(string(b)) {
			seen++
			if v != newest {
				t.Errorf("%s:%d: names ctrllint %s; CHANGELOG.md's newest release is %s", f, line, v, newest)
			}
		}
	}
	if seen == 0 {
		t.Error("no document names a ctrllint version: the scan finds nothing (docs/ci.md's pre-commit rev should be one)")
	}
}

func TestCtrllintVersions(t *testing.T) {
	text := `version: v2.15.0
plugins:
  - module: github.com/ctrllint/ctrllint
    import: github.com/ctrllint/ctrllint/plugin
    version: v0.1.0
repos:
  - repo: https://github.com/ctrllint/ctrllint
    rev: v0.0.9 # a release tag
    go install github.com/ctrllint/ctrllint/cmd/ctrllint@v0.1.1
    go install github.com/ctrllint/ctrllint/cmd/ctrllint@latest
  #   - module: github.com/ctrllint/ctrllint
  #     version: v0.2.0
    go get github.com/ctrllint/ctrllint/runtime@v0.3.0
`
	got := ctrllintVersions(text)
	want := map[int]string{5: "v0.1.0", 8: "v0.0.9", 9: "v0.1.1", 12: "v0.2.0"}
	if len(got) != len(want) {
		t.Errorf("ctrllintVersions = %v, want %v", got, want)
	}
	for l, v := range want {
		if got[l] != v {
			t.Errorf("line %d: %q, want %q (all: %v)", l, got[l], v, got)
		}
	}
}
