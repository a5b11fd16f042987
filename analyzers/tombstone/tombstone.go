package tombstone

import (
	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/directive"
	"github.com/ctrllint/ctrllint/analyzers/internal/manual"
)

const name = "tombstone"

// Analyzer reports delete handlers that mishandle tombstones.
var Analyzer = &analysis.Analyzer{
	Name: name,
	Doc:  manual.MustParse(name, DocSource).AnalyzerDoc(),
	URL:  "https://github.com/ctrllint/ctrllint/blob/main/docs/analyzers/tombstone.md",
	Run:  directive.Honour(name, run),
}

func run(pass *analysis.Pass) (any, error) {
	return nil, nil
}
