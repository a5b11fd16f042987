// Package manual reads an analyzer's documentation out of its doc.go. The
// package comment of each analyzer is the single source of truth: Analyzer.Doc,
// `ctrllint -explain`, the SARIF rule text and the pages under docs/ are all
// rendered from it, so they cannot drift apart.
//
// The comment follows the shape of golang.org/x/tools/go/analysis/passes:
//
//	# Analyzer NAME
//
//	NAME: one-line summary
//
//	Why it matters, with the real consequence.
//
//	# Wrong
//	# Right
//	# Fix
//	# Suppress
//	# Not reported
package manual

import (
	"fmt"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"strings"
)

// Required lists the sections every analyzer page must have, in order.
var Required = []string{"Wrong", "Right", "Fix", "Suppress", "Not reported"}

// A Page is one analyzer's documentation.
type Page struct {
	Name    string
	Summary string
	// Why is the text between the summary and the first section.
	Why      []comment.Block
	Sections []Section
}

// A Section is a titled part of a page.
type Section struct {
	Title  string
	Blocks []comment.Block
}

// Parse extracts the page of analyzer name from the Go source of its doc.go.
func Parse(name, src string) (*Page, error) {
	f, err := parser.ParseFile(token.NewFileSet(), name+"/doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return nil, err
	}
	if f.Doc == nil {
		return nil, fmt.Errorf("%s: doc.go has no package comment", name)
	}
	var p comment.Parser
	doc := p.Parse(f.Doc.Text())

	page := &Page{Name: name}
	blocks := doc.Content
	// Skip the package synopsis up to "# Analyzer NAME".
	for len(blocks) > 0 && headingText(blocks[0]) != "Analyzer "+name {
		blocks = blocks[1:]
	}
	if len(blocks) == 0 {
		return nil, fmt.Errorf("%s: doc.go has no %q heading", name, "# Analyzer "+name)
	}
	blocks = blocks[1:]
	if len(blocks) == 0 {
		return nil, fmt.Errorf("%s: no summary after the heading", name)
	}
	para, ok := blocks[0].(*comment.Paragraph)
	summary := ""
	if ok {
		summary = plain(para.Text)
	}
	prefix := name + ": "
	if !strings.HasPrefix(summary, prefix) {
		return nil, fmt.Errorf("%s: the paragraph after the heading must read %q, got %q", name, prefix+"summary", summary)
	}
	page.Summary = strings.TrimPrefix(summary, prefix)
	blocks = blocks[1:]

	cur := &page.Why
	for _, b := range blocks {
		if h := headingText(b); h != "" {
			page.Sections = append(page.Sections, Section{Title: h})
			cur = &page.Sections[len(page.Sections)-1].Blocks
			continue
		}
		*cur = append(*cur, b)
	}
	if len(page.Why) == 0 {
		return nil, fmt.Errorf("%s: no explanation of why the finding matters before the first section", name)
	}
	for i, want := range Required {
		if i >= len(page.Sections) || page.Sections[i].Title != want {
			return nil, fmt.Errorf("%s: section %d must be %q", name, i+1, want)
		}
	}
	return page, nil
}

// MustParse is Parse for doc.go files embedded in the binary, whose shape is
// checked by tests.
func MustParse(name, src string) *Page {
	p, err := Parse(name, src)
	if err != nil {
		panic(err)
	}
	return p
}

// Section returns the blocks of the titled section, or nil.
func (p *Page) Section(title string) []comment.Block {
	for _, s := range p.Sections {
		if s.Title == title {
			return s.Blocks
		}
	}
	return nil
}

// AnalyzerDoc is the text for analysis.Analyzer.Doc: the summary line, then
// the rest of the page as plain text (the go/analysis convention).
func (p *Page) AnalyzerDoc() string { return p.Summary + "\n\n" + p.Text() }

// Text renders the page for a terminal (`ctrllint -explain`).
func (p *Page) Text() string {
	pr := &comment.Printer{TextWidth: 80}
	var b strings.Builder
	b.Write(pr.Text(&comment.Doc{Content: p.Why}))
	for _, s := range p.Sections {
		b.WriteString("\n" + strings.ToUpper(s.Title) + "\n\n")
		b.Write(pr.Text(&comment.Doc{Content: s.Blocks}))
	}
	return b.String()
}

// Markdown renders the page for docs/analyzers/NAME.md.
func (p *Page) Markdown() string {
	pr := &comment.Printer{HeadingLevel: 2}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", p.Name, p.Summary)
	b.Write(pr.Markdown(&comment.Doc{Content: p.Why}))
	for _, s := range p.Sections {
		fmt.Fprintf(&b, "\n## %s\n\n", s.Title)
		b.Write(pr.Markdown(&comment.Doc{Content: s.Blocks}))
	}
	return b.String()
}

func headingText(b comment.Block) string {
	h, ok := b.(*comment.Heading)
	if !ok {
		return ""
	}
	return plain(h.Text)
}

func plain(text []comment.Text) string {
	var b strings.Builder
	for _, t := range text {
		switch t := t.(type) {
		case comment.Plain:
			b.WriteString(string(t))
		case comment.Italic:
			b.WriteString(string(t))
		case *comment.Link:
			b.WriteString(plain(t.Text))
		case *comment.DocLink:
			b.WriteString(plain(t.Text))
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
