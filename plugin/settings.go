package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
)

// Settings is the plugin's settings block
// (linters.settings.custom.ctrllint.settings):
//
//	enable: [tombstone, forget]   # run only these analyzers
//	disable: [sharedowner]        # do not run these
//	listerbypass:                 # one block per analyzer: its flags
//	  all: false
//
// enable and disable select analyzers by the rule every ctrllint front end
// shares (analyzers.Select). Every key is checked: an unknown key, analyzer
// or option, a value of the wrong type, an empty enable list, an analyzer
// both enabled and disabled, or a selection that leaves no analyzer is an
// error, never a silent run of something else.
type Settings struct {
	// Enable, when not empty, runs only these analyzers.
	Enable []string
	// Disable removes these analyzers from the selection.
	Disable []string
	// Options sets analyzer flags: analyzer name -> flag name -> value, in
	// the flag's own syntax ("true"). An analyzer's flags that are not set
	// here take their defaults.
	Options map[string]map[string]string
}

const (
	keyEnable  = "enable"
	keyDisable = "disable"
)

// ParseSettings decodes and validates the raw settings golangci-lint passes
// to New, against the analyzers in all. nil (no settings block) means every
// analyzer with its default options.
func ParseSettings(raw any, all []*analysis.Analyzer) (Settings, error) {
	// DecodeSettings turns golangci-lint's YAML-decoded value into JSON and
	// decodes that; a map keeps every key for the checks below, which need
	// the analyzers' names and flags rather than a fixed struct.
	fields, err := register.DecodeSettings[map[string]json.RawMessage](raw)
	if err != nil {
		return Settings{}, fmt.Errorf("%s settings: want a map of enable, disable and per-analyzer options: %w", Name, err)
	}
	byName := make(map[string]*analysis.Analyzer, len(all))
	var names []string
	for _, a := range all {
		byName[a.Name] = a
		names = append(names, a.Name)
	}
	var s Settings
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s settings: "+format, append([]any{Name}, args...)...))
	}
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		val := fields[key]
		switch {
		case key == keyEnable || key == keyDisable:
			list, err := analyzerList(val)
			if err != nil {
				fail("%s: %v (analyzers: %s)", key, err, strings.Join(names, ", "))
				continue
			}
			if key == keyEnable {
				s.Enable = list
			} else {
				s.Disable = list
			}
		case byName[key] != nil:
			opts, optErrs := analyzerOptions(byName[key], val)
			for _, err := range optErrs {
				fail("%s: %v", key, err)
			}
			if len(opts) > 0 {
				if s.Options == nil {
					s.Options = make(map[string]map[string]string)
				}
				s.Options[key] = opts
			}
		default:
			fail("unknown key %q: the keys are enable, disable and an analyzer name for its options (%s)", key, strings.Join(names, ", "))
		}
	}
	// A key without a value (`enable:`) is null: as good as absent. An
	// empty list reads as "run nothing", which analyzers.Select would take
	// as "enable everything".
	if raw := fields[keyEnable]; raw != nil && !isNull(raw) && s.Enable != nil && len(s.Enable) == 0 {
		fail("enable is empty, which would run no analyzer: list analyzers, or remove it (%s)", strings.Join(names, ", "))
	} else if _, err := analyzers.SelectFrom(all, s.Enable, s.Disable); err != nil {
		fail("%v", err)
	}
	if err := errors.Join(errs...); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// analyzerList decodes a list of analyzer names; analyzers.SelectFrom
// checks them.
func analyzerList(raw json.RawMessage) ([]string, error) {
	list := []string{}
	if err := strictUnmarshal(raw, &list); err != nil {
		return nil, errors.New("want a list of analyzer names, e.g. [tombstone, forget]")
	}
	return list, nil
}

// analyzerOptions decodes an analyzer's options block into flag values.
func analyzerOptions(a *analysis.Analyzer, raw json.RawMessage) (map[string]string, []error) {
	if isNull(raw) {
		return nil, nil // `listerbypass:` with nothing under it
	}
	known := flagNames(a)
	var block map[string]json.RawMessage
	if err := strictUnmarshal(raw, &block); err != nil || block == nil {
		if len(known) == 0 {
			return nil, []error{errors.New("this analyzer has no options")}
		}
		return nil, []error{fmt.Errorf("want a map of options (%s)", strings.Join(known, ", "))}
	}
	opts := make(map[string]string)
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(block)) {
		// golangci-lint (viper) lower-cases configuration keys.
		f := lookupFlag(a, key)
		if f == nil {
			if len(known) == 0 {
				errs = append(errs, fmt.Errorf("unknown option %q: this analyzer has no options", key))
			} else {
				errs = append(errs, fmt.Errorf("unknown option %q (options: %s)", key, strings.Join(known, ", ")))
			}
			continue
		}
		v, err := flagValue(f, block[key])
		if err != nil {
			errs = append(errs, fmt.Errorf("option %s: %v", f.Name, err))
			continue
		}
		opts[f.Name] = v
	}
	return opts, errs
}

func flagNames(a *analysis.Analyzer) []string {
	var names []string
	a.Flags.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

func lookupFlag(a *analysis.Analyzer, key string) *flag.Flag {
	var found *flag.Flag
	a.Flags.VisitAll(func(f *flag.Flag) {
		if strings.EqualFold(f.Name, key) {
			found = f
		}
	})
	return found
}

// flagValue turns a settings value into the flag's syntax, checking it
// against the flag's type without setting it (the flag's variable is shared
// with every other user of the analyzer).
func flagValue(f *flag.Flag, raw json.RawMessage) (string, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		if x, ok := v.(bool); ok {
			return strconv.FormatBool(x), nil
		}
		return "", fmt.Errorf("want true or false, got %s", raw)
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "", errors.New("the plugin cannot set this option (its flag has no type)")
	}
	switch g.Get().(type) {
	case string:
		if x, ok := v.(string); ok {
			return x, nil
		}
		return "", fmt.Errorf("want a string, got %s", raw)
	case time.Duration:
		if x, ok := v.(string); ok {
			if _, err := time.ParseDuration(x); err == nil {
				return x, nil
			}
		}
		return "", fmt.Errorf("want a duration such as \"30s\", got %s", raw)
	case int, int64:
		if x, ok := v.(json.Number); ok {
			if _, err := strconv.ParseInt(x.String(), 10, 64); err == nil {
				return x.String(), nil
			}
		}
		return "", fmt.Errorf("want an integer, got %s", raw)
	case uint, uint64:
		if x, ok := v.(json.Number); ok {
			if _, err := strconv.ParseUint(x.String(), 10, 64); err == nil {
				return x.String(), nil
			}
		}
		return "", fmt.Errorf("want a non-negative integer, got %s", raw)
	case float64:
		if x, ok := v.(json.Number); ok {
			return x.String(), nil
		}
		return "", fmt.Errorf("want a number, got %s", raw)
	}
	return "", fmt.Errorf("the plugin cannot set an option of type %T", g.Get())
}

func strictUnmarshal(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// Analyzers returns the analyzers of all that s selects, in all's order,
// with their options set. all must be fresh instances (analyzers.New): the
// options are set on them.
func (s Settings) Analyzers(all []*analysis.Analyzer) ([]*analysis.Analyzer, error) {
	selected, err := analyzers.SelectFrom(all, s.Enable, s.Disable)
	if err != nil {
		return nil, fmt.Errorf("%s settings: %w", Name, err)
	}
	for _, a := range selected {
		if err := configure(a, s.Options[a.Name]); err != nil {
			return nil, err
		}
	}
	return selected, nil
}

// configure sets an analyzer's options (flag name -> value) on a, which
// must be a fresh instance from analyzers.New: its flags are its own, so
// nothing leaks to the ctrllint command or to other plugin instances.
func configure(a *analysis.Analyzer, opts map[string]string) error {
	for name, value := range opts {
		if err := a.Flags.Set(name, value); err != nil {
			return fmt.Errorf("%s.%s: %v", a.Name, name, err)
		}
	}
	return nil
}
