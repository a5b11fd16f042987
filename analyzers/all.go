// Package analyzers is the one list of ctrllint's analyzers. Front ends (the
// ctrllint command, go vet's -vettool mode, the golangci-lint plugin, the
// editor server) take their analyzers from All and their documentation from
// Lookup, so adding an analyzer here is all it takes to ship it everywhere.
package analyzers

import (
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/cachemutation"
	"github.com/ctrllint/ctrllint/analyzers/cachesync"
	"github.com/ctrllint/ctrllint/analyzers/forget"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/manual"
	"github.com/ctrllint/ctrllint/analyzers/listerbypass"
	"github.com/ctrllint/ctrllint/analyzers/queuedone"
	"github.com/ctrllint/ctrllint/analyzers/requeueerr"
	"github.com/ctrllint/ctrllint/analyzers/sharedowner"
	"github.com/ctrllint/ctrllint/analyzers/statusupdate"
	"github.com/ctrllint/ctrllint/analyzers/suppression"
	"github.com/ctrllint/ctrllint/analyzers/tombstone"
)

// DocBaseURL is where the rendered analyzer pages live; SARIF help links and
// -explain point there.
const DocBaseURL = "https://github.com/ctrllint/ctrllint/blob/main/docs/analyzers/"

// entry ties an analyzer to its doc.go, the single source of its
// documentation, and, for an analyzer with options, to its constructor.
type entry struct {
	analyzer *analysis.Analyzer
	doc      string
	fresh    func() *analysis.Analyzer
}

var entries = withSuppression([]entry{
	{tombstone.Analyzer, tombstone.DocSource, nil},
	{forget.Analyzer, forget.DocSource, nil},
	{queuedone.Analyzer, queuedone.DocSource, nil},
	{listerbypass.Analyzer, listerbypass.DocSource, listerbypass.New},
	{sharedowner.Analyzer, sharedowner.DocSource, nil},
	{cachemutation.Analyzer, cachemutation.DocSource, nil},
	{cachesync.Analyzer, cachesync.DocSource, nil},
	{statusupdate.Analyzer, statusupdate.DocSource, nil},
	{requeueerr.Analyzer, requeueerr.DocSource, nil},
})

// withSuppression adds the analyzer that checks the suite's suppression
// directives: each analyzer honours only directives naming it, so only
// this list knows every name a directive may use.
func withSuppression(es []entry) []entry {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.analyzer.Name
	}
	return append(es, entry{suppression.New(names), suppression.DocSource, nil})
}

// WholePackages are the import paths of the packages whose scopes the
// analyzers read beyond the analysed package's imports (driver.Config's
// WholePackages).
func WholePackages() []string { return slices.Clone(kube.ScopesRead) }

// All returns every ctrllint analyzer, in a stable order.
func All() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(entries))
	for i, e := range entries {
		out[i] = e.analyzer
	}
	return out
}

// New returns every analyzer like All, except that analyzers with options
// are fresh instances whose flags are their own: setting them changes
// nothing for All's analyzers or for other instances. Front ends that
// configure analyzers per instance (the golangci-lint plugin) use it.
func New() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(entries))
	for i, e := range entries {
		out[i] = e.analyzer
		if e.fresh != nil {
			out[i] = e.fresh()
		}
	}
	return out
}

// Info is what a front end shows about one analyzer.
type Info struct {
	Name     string
	Summary  string // one line, lower case, no final period
	URL      string // the rendered documentation page
	Text     string // the whole page as plain text, for -explain
	Markdown string // the whole page as Markdown, for docs/
}

// Lookup returns the documentation of the named analyzer.
func Lookup(name string) (Info, bool) {
	for _, e := range entries {
		if e.analyzer.Name != name {
			continue
		}
		p := manual.MustParse(name, e.doc)
		return Info{
			Name:     name,
			Summary:  p.Summary,
			URL:      DocURL(name),
			Text:     p.Text(),
			Markdown: p.Markdown(),
		}, true
	}
	return Info{}, false
}

// DocURL is the address of the named analyzer's documentation page.
func DocURL(name string) string { return DocBaseURL + name + ".md" }
