package analyzers_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every relative link in the repository's documents leads somewhere: the
// file exists and, for a #fragment, the heading does (GitHub's anchors), so
// that a page renamed or a section retitled cannot leave a dead link.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..")
	docs, _ := filepath.Glob(filepath.Join(root, "*.md"))
	for _, pattern := range []string{"docs/*.md", "docs/analyzers/*.md", "runtime/*.md"} {
		more, _ := filepath.Glob(filepath.Join(root, pattern))
		docs = append(docs, more...)
	}
	if len(docs) < 10 {
		t.Fatalf("found only %d documents", len(docs))
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := make(map[string]map[string]bool)
	anchorsOf := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		a := headingAnchors(t, file)
		anchors[file] = a
		return a
	}
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := stripCode(string(b), true)
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			file := doc
			if path != "" {
				file = filepath.Join(filepath.Dir(doc), path)
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: link %s: %v", doc, target, err)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(file, ".md") && !anchorsOf(file)[frag] {
				t.Errorf("%s: link %s: %s has no heading with the anchor #%s", doc, target, file, frag)
			}
		}
	}
}

var codeSpan = regexp.MustCompile("`[^`]*`")

// stripCode drops code blocks, fenced and indented, and with spans code
// spans, whose brackets are Go or YAML, not links.
func stripCode(text string, spans bool) string {
	var out []string
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue
		}
		if spans {
			line = codeSpan.ReplaceAllString(line, "")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// headingAnchors are the anchors GitHub gives file's headings: lower case,
// punctuation but hyphens and underscores dropped, spaces made hyphens, a
// repeated one numbered.
func headingAnchors(t *testing.T, file string) map[string]bool {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	drop := regexp.MustCompile(`[^\p{L}\p{N}\s_-]`)
	seen := make(map[string]int)
	out := make(map[string]bool)
	for _, line := range strings.Split(stripCode(string(b), false), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		a := strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(h), ""), " ", "-")
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	// Explicit anchors (<a id="...">) count too.
	for _, m := range regexp.MustCompile(`<a (?:id|name)="([^"]+)"`).FindAllStringSubmatch(string(b), -1) {
		out[m[1]] = true
	}
	return out
}
