// Package plugin makes ctrllint a golangci-lint v2 module plugin.
//
// golangci-lint links module plugins into a custom binary (`golangci-lint
// custom`, .custom-gcl.yml) that imports this package for its side effect:
// the init function registers the plugin under the name "ctrllint". A
// configuration then enables it as a custom linter of type module:
//
//	linters:
//	  enable: [ctrllint]
//	  settings:
//	    custom:
//	      ctrllint:
//	        type: module
//	        settings:
//	          disable: [sharedowner]
//	          listerbypass:
//	            all: false
//
// The settings are described at Settings; docs/golangci-lint.md has the
// whole set-up. Everything but the registration is ordinary code that runs
// without golangci-lint: New, ParseSettings and Settings.Analyzers.
package plugin

import (
	"fmt"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
)

// Name is the plugin's name: the key under linters.settings.custom, the
// linter name in linters.enable and //nolint:ctrllint, and the FromLinter
// of every finding (whose text starts with the analyzer's name).
const Name = "ctrllint"

func init() { register.Plugin(Name, New) }

// Plugin is one configured instance of the plugin.
type Plugin struct {
	analyzers []*analysis.Analyzer
}

var _ register.LinterPlugin = (*Plugin)(nil)

// New builds the plugin from the raw settings golangci-lint read from its
// configuration (nil when there is no settings block). Invalid settings are
// an error naming every problem, so golangci-lint stops before linting.
func New(settings any) (register.LinterPlugin, error) {
	all := analyzers.New() // fresh instances: this plugin's options are its own
	s, err := ParseSettings(settings, all)
	if err != nil {
		return nil, err
	}
	as, err := s.Analyzers(all)
	if err != nil {
		return nil, fmt.Errorf("%s settings: %w", Name, err)
	}
	return &Plugin{analyzers: excluding(as, s)}, nil
}

// BuildAnalyzers returns the enabled analyzers, with their options applied.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return append([]*analysis.Analyzer(nil), p.analyzers...), nil
}

// GetLoadMode asks golangci-lint for type information: every ctrllint
// analyzer needs it (in syntax mode golangci-lint gives analyzers none).
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
