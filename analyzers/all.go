// Package analyzers is the one list of ctrllint's analyzers. Front ends (the
// ctrllint command, go vet's -vettool mode, the golangci-lint plugin, the
// editor server) take their analyzers from All and their documentation from
// Lookup, so adding an analyzer here is all it takes to ship it everywhere.
package analyzers

import (
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/cachemutation"
	"github.com/ctrllint/ctrllint/analyzers/cachescope"
	"github.com/ctrllint/ctrllint/analyzers/cachesync"
	"github.com/ctrllint/ctrllint/analyzers/clientperreconcile"
	"github.com/ctrllint/ctrllint/analyzers/conflictretry"
	"github.com/ctrllint/ctrllint/analyzers/finalizer"
	"github.com/ctrllint/ctrllint/analyzers/finalizerpatch"
	"github.com/ctrllint/ctrllint/analyzers/forget"
	"github.com/ctrllint/ctrllint/analyzers/handlerblocking"
	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/manual"
	"github.com/ctrllint/ctrllint/analyzers/internal/summary"
	"github.com/ctrllint/ctrllint/analyzers/listerbypass"
	"github.com/ctrllint/ctrllint/analyzers/observedgeneration"
	"github.com/ctrllint/ctrllint/analyzers/ownerkind"
	"github.com/ctrllint/ctrllint/analyzers/patchbase"
	"github.com/ctrllint/ctrllint/analyzers/queuedone"
	"github.com/ctrllint/ctrllint/analyzers/rbacmarkers"
	"github.com/ctrllint/ctrllint/analyzers/requeueerr"
	"github.com/ctrllint/ctrllint/analyzers/sharedowner"
	"github.com/ctrllint/ctrllint/analyzers/statusupdate"
	"github.com/ctrllint/ctrllint/analyzers/suppression"
	"github.com/ctrllint/ctrllint/analyzers/tombstone"
	"github.com/ctrllint/ctrllint/analyzers/unwatched"
)

// DocBaseURL is where the rendered analyzer pages live; SARIF help links and
// -explain point there.
const DocBaseURL = define.DocBaseURL

// definitions are the suite, in the order front ends list it. Adding an
// analyzer is one line here.
var definitions = withSuppression([]*define.Definition{
	tombstone.Definition,
	forget.Definition,
	queuedone.Definition,
	listerbypass.Definition,
	sharedowner.Definition,
	cachemutation.Definition,
	cachesync.Definition,
	statusupdate.Definition,
	requeueerr.Definition,
	patchbase.Definition,
	conflictretry.Definition,
	ownerkind.Definition,
	clientperreconcile.Definition,
	handlerblocking.Definition,
	finalizer.Definition,
	unwatched.Definition,
	finalizerpatch.Definition,
	observedgeneration.Definition,
	rbacmarkers.Definition,
	cachescope.Definition,
})

// withSuppression adds the analyzer that checks the suite's suppression
// directives: each analyzer honours only directives naming it, so only
// this list knows every name a directive may use.
func withSuppression(ds []*define.Definition) []*define.Definition {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = d.Name()
	}
	return append(ds, suppression.Define(names))
}

// WholePackages are the import paths of the packages whose scopes the
// analyzers read beyond the analysed package's imports (driver.Config's
// WholePackages): the union of what their definitions declare.
func WholePackages() []string {
	var out []string
	for _, d := range definitions {
		for _, p := range d.Scopes() {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// SummaryImports are the import path prefixes of the APIs the analyzers'
// summaries are about (driver.Config's SummaryImports): a dependency of the
// analysed module that uses none of them has nothing to summarise.
func SummaryImports() []string { return slices.Clone(summary.Imports) }

// All returns every ctrllint analyzer, in a stable order.
func All() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(definitions))
	for i, d := range definitions {
		out[i] = d.Analyzer
	}
	return out
}

// New returns every analyzer like All, except that analyzers with options
// are fresh instances whose flags are their own: setting them changes
// nothing for All's analyzers or for other instances. Front ends that
// configure analyzers per instance (the golangci-lint plugin) use it.
func New() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(definitions))
	for i, d := range definitions {
		out[i] = d.Analyzer
		if d.HasOptions() {
			out[i] = d.New()
		}
	}
	return out
}

// Info is what a front end shows about one analyzer.
type Info struct {
	Name string
	// RuleName names what the analyzer reports, in PascalCase
	// (DeleteHandlerMishandlesTombstone): SARIF's rule name.
	RuleName string
	Summary  string // one line, lower case, no final period
	URL      string // the rendered documentation page
	Text     string // the whole page as plain text, for -explain
	Markdown string // the whole page as Markdown, for docs/
	// Scopes are the dependencies whose package scopes the analyzer reads
	// (see WholePackages).
	Scopes []string
}

// Lookup returns the documentation of the named analyzer.
func Lookup(name string) (Info, bool) {
	for _, d := range definitions {
		if d.Name() != name {
			continue
		}
		p := manual.MustParse(name, d.DocSource())
		return Info{
			Name:     name,
			RuleName: d.RuleName(),
			Summary:  p.Summary,
			URL:      DocURL(name),
			Text:     p.Text(),
			Markdown: p.Markdown(),
			Scopes:   d.Scopes(),
		}, true
	}
	return Info{}, false
}

// DocURL is the address of the named analyzer's documentation page.
func DocURL(name string) string { return define.DocURL(name) }
