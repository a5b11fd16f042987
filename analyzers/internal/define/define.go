// Package define is the one way a ctrllint analyzer is built. A Spec says
// what is particular to an analyzer; New derives the rest the same way for
// all of them, so that the front ends, the documentation and the driver can
// rely on it:
//
//   - Doc is rendered from the package's doc.go (DocSource), and URL is
//     DocBaseURL + name + ".md", the page `make docs` writes from it;
//   - the run function honours //ctrllint:ignore and //ctrllint:file-ignore
//     directives naming the analyzer and drops diagnostics in generated
//     files (package directive), unless the analyzer checks the directives
//     itself;
//   - a suggested fix is reported only if the package still parses and
//     type-checks with it applied (edit.Checked): checked after the
//     directives, so that suppressed findings cost nothing;
//   - the dependency packages whose scopes the analyzer reads are data on
//     the definition (Scopes), which the driver is told to decode whole.
//
// Crash handling stays where the code knows what it is analysing: an
// analyzer defers crash.At(pass.Fset, fn.Pos()) around the analysis of each
// function, so that a panic names the user's code that caused it
// (internal/crash); the driver recovers the *crash.Panic and reports it as
// the analyzer's error on that package.
package define

import (
	"flag"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/directive"
	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
	"github.com/ctrllint/ctrllint/analyzers/internal/manual"
)

// DocBaseURL is where the rendered analyzer pages live; SARIF help links and
// -explain point there.
const DocBaseURL = "https://github.com/ctrllint/ctrllint/blob/main/docs/analyzers/"

// DocURL is the address of the named analyzer's documentation page.
func DocURL(name string) string { return DocBaseURL + name + ".md" }

// RunFunc is an analyzer's analysis of one package.
type RunFunc = func(*analysis.Pass) (any, error)

// A Spec is what is particular to one analyzer.
type Spec struct {
	// Name is one lowercase word: the package's directory, the key of
	// suppression directives, the SARIF rule and the docs page.
	Name string
	// RuleName names what the analyzer reports as a PascalCase phrase
	// (DeleteHandlerMishandlesTombstone): SARIF's friendly rule name,
	// which viewers show beside the id. It must be more than Name
	// capitalised: SARIF validators warn of a name equal to the id in any
	// case.
	RuleName string
	// DocSource is the source of the package's doc.go (go:embed), the
	// single source of its documentation (package manual).
	DocSource string
	// Requires are the analyzers whose results Run uses.
	Requires []*analysis.Analyzer
	// FactTypes are the summaries Run exports for the functions of a
	// package and imports for its callees in other packages
	// (analyzers/internal/summary). An analyzer with facts requires
	// lend.Analyzer, which summary.Local reads.
	FactTypes []analysis.Fact
	// Scopes are the import paths of dependencies whose package scope Run
	// reads (found with kube.LookupPackage, then Scope().Lookup). When
	// dependencies come from export data, a package the analysed package
	// does not import directly holds only what other decoded packages
	// mention, so the driver decodes these whole (driver.Config's
	// WholePackages) and what Run finds there does not depend on what else
	// was decoded. The analysed package's own scope needs no declaration.
	Scopes []string
	// Run is the analysis, for an analyzer without options.
	Run RunFunc
	// Options, for an analyzer with options instead of Run, declares them
	// on an instance's flag set and returns the run function that reads
	// them, so that each instance (New) has options of its own.
	Options func(*flag.FlagSet) RunFunc
	// OwnDirectives is for the analyzer that checks the suppression
	// directives themselves: its findings are not subject to them.
	OwnDirectives bool
}

// A Definition is a built analyzer together with its Spec.
type Definition struct {
	spec Spec
	// Analyzer is the instance the analyzer package exports as its
	// Analyzer variable (nogo, go vet and the command use it).
	Analyzer *analysis.Analyzer
}

// New builds the analyzer spec describes. It panics when spec lacks a name,
// its documentation or its run function, or has both Run and Options: a
// definition is checked when the program starts, not when it first runs.
func New(spec Spec) *Definition {
	switch {
	case spec.Name == "":
		panic("define: analyzer without a name")
	case !pascalCase.MatchString(spec.RuleName) || strings.EqualFold(spec.RuleName, spec.Name):
		panic("define: analyzer " + spec.Name + " needs a RuleName in PascalCase that is not its name, got " + strconv.Quote(spec.RuleName))
	case (spec.Run == nil) == (spec.Options == nil):
		panic("define: analyzer " + spec.Name + " needs exactly one of Run and Options")
	}
	d := &Definition{spec: spec}
	d.Analyzer = d.New()
	return d
}

// New returns a fresh instance of the analyzer. For an analyzer with
// options, its flags are its own: setting them changes nothing for
// Analyzer or other instances. For one without, it is a copy of Analyzer
// with the same behaviour.
func (d *Definition) New() *analysis.Analyzer {
	s := d.spec
	a := &analysis.Analyzer{
		Name:      s.Name,
		Doc:       manual.MustParse(s.Name, s.DocSource).AnalyzerDoc(),
		URL:       DocURL(s.Name),
		Requires:  s.Requires,
		FactTypes: s.FactTypes,
	}
	run := s.Run
	if s.Options != nil {
		run = s.Options(&a.Flags)
	}
	if !s.OwnDirectives {
		run = directive.Honour(s.Name, run)
	}
	a.Run = edit.Checked(run)
	return a
}

// pascalCase is a RuleName: words run together, each capitalised.
var pascalCase = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

// Name is the analyzer's name.
func (d *Definition) Name() string { return d.spec.Name }

// RuleName is the analyzer's friendly rule name (Spec.RuleName).
func (d *Definition) RuleName() string { return d.spec.RuleName }

// DocSource is the source of the analyzer's doc.go.
func (d *Definition) DocSource() string { return d.spec.DocSource }

// Scopes are the dependencies whose scopes the analyzer reads (Spec.Scopes).
func (d *Definition) Scopes() []string { return append([]string(nil), d.spec.Scopes...) }

// HasOptions reports whether the analyzer has options, so that a front end
// configuring analyzers per instance needs New rather than Analyzer.
func (d *Definition) HasOptions() bool { return d.spec.Options != nil }
