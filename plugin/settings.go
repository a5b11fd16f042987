package plugin

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/config"
)

// Settings is the plugin's settings block
// (linters.settings.custom.ctrllint.settings): the keys of the ctrllint
// command's .ctrllint.yml, checked by the same code (internal/config), but
// severity:
//
//	enable: [tombstone, forget]   # run only these analyzers
//	disable: [sharedowner]        # do not run these
//	listerbypass:                 # one block per analyzer: its flags
//	  all: false
//	exclude-paths: ['^gen/']      # drop findings in files these match
//
// enable and disable select analyzers by the rule every ctrllint front end
// shares (analyzers.Select). exclude-paths are matched against the file's
// path relative to the root of its module (the directory of the nearest
// go.mod above it): the plugin is not told where golangci-lint's
// configuration is. severity is refused: a module plugin cannot set a
// finding's severity, golangci-lint's severity.rules can.
type Settings = config.Settings

// ParseSettings decodes and validates the raw settings golangci-lint passes
// to New, against the analyzers in all. nil (no settings block) means every
// analyzer with its default options.
func ParseSettings(raw any, all []*analysis.Analyzer) (Settings, error) {
	// DecodeSettings turns golangci-lint's YAML-decoded value into JSON and
	// decodes that; a map keeps every key for config.Decode, which needs
	// the analyzers' names and flags rather than a fixed struct.
	fields, err := register.DecodeSettings[map[string]json.RawMessage](raw)
	if err != nil {
		return Settings{}, fmt.Errorf("%s settings: want a map of enable, disable, exclude-paths and per-analyzer options: %w", Name, err)
	}
	s, problems := config.Decode(fields, all, config.Plugin)
	if len(problems) > 0 {
		errs := make([]error, len(problems))
		for i, p := range problems {
			errs[i] = fmt.Errorf("%s settings: %s", Name, p.Msg)
		}
		return Settings{}, errors.Join(errs...)
	}
	return s, nil
}
