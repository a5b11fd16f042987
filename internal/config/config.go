// Package config reads and checks ctrllint's settings: the .ctrllint.yml
// file of the ctrllint command and the settings block of the golangci-lint
// plugin (linters.settings.custom.ctrllint.settings). Both take the same
// keys and go through Decode, so one block means the same thing in both and
// every key is checked by one piece of code:
//
//	enable: [tombstone, forget]   # run only these analyzers
//	disable: [sharedowner]        # do not run these
//	listerbypass:                 # one block per analyzer: its flags
//	  all: false
//	exclude-paths: ['^gen/']      # drop findings in files these match
//	severity:                     # error, warning or note (the file only)
//	  default: warning
//	  tombstone: error
//
// A problem is never a silent run of something else: every unknown key,
// analyzer or option, value of the wrong type, empty enable list, analyzer
// both enabled and disabled, selection that leaves nothing to run, bad
// regular expression or severity is reported, all of them at once.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
)

// The keys besides the analyzers' names.
const (
	KeyEnable       = "enable"
	KeyDisable      = "disable"
	KeyExcludePaths = "exclude-paths"
	KeySeverity     = "severity"
	// SeverityDefault is the key under severity for analyzers not named
	// there.
	SeverityDefault = "default"
)

// Severities are the values severity takes, most severe first; Warning is
// the default.
var Severities = []string{"error", "warning", "note"}

// Warning is the severity of an analyzer the settings say nothing of.
const Warning = "warning"

// Front is the front end whose settings are decoded: the keys differ only
// where the front end cannot honour one.
type Front int

const (
	// Command is the ctrllint command's .ctrllint.yml: every key.
	Command Front = iota
	// Plugin is golangci-lint's settings block for the plugin: severity is
	// refused, because a module plugin cannot set a finding's severity.
	Plugin
)

// Settings are validated settings.
type Settings struct {
	// Enable, when not empty, runs only these analyzers.
	Enable []string
	// Disable removes these analyzers from the selection.
	Disable []string
	// Options sets analyzer flags: analyzer name -> flag name -> value, in
	// the flag's own syntax ("true"). An analyzer's flags that are not set
	// here take their defaults.
	Options map[string]map[string]string
	// ExcludePaths drop the findings in files whose path (slash-separated,
	// relative to a base directory the front end chooses) one of them
	// matches.
	ExcludePaths []*regexp.Regexp
	// Severity maps analyzer names, and SeverityDefault, to a severity.
	Severity map[string]string
}

// Problem is one thing wrong with the settings.
type Problem struct {
	// Path is where: the keys from the top, and list indices in decimal
	// (["listerbypass", "all"], ["exclude-paths", "2"]); empty for the
	// settings as a whole.
	Path []string
	// Msg says what is wrong, starting with the key it is about.
	Msg string
}

// Decode checks settings decoded as a JSON object (key -> raw value) against
// the analyzers in all and returns them, or every problem found.
func Decode(fields map[string]json.RawMessage, all []*analysis.Analyzer, front Front) (Settings, []Problem) {
	byName := make(map[string]*analysis.Analyzer, len(all))
	var names []string
	for _, a := range all {
		byName[a.Name] = a
		names = append(names, a.Name)
	}
	known := strings.Join(names, ", ")
	var s Settings
	var problems []Problem
	fail := func(path []string, format string, args ...any) {
		problems = append(problems, Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	// A list that is wrong is reported once: the selection of the rest is
	// not checked.
	badList := false
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		val := fields[key]
		switch {
		case key == KeyEnable || key == KeyDisable:
			list, err := analyzerList(val)
			if err != nil {
				fail([]string{key}, "%s: %v (analyzers: %s)", key, err, known)
				badList = true
				continue
			}
			if i := slices.IndexFunc(list, func(n string) bool { return byName[n] == nil }); i >= 0 {
				// The first unknown name places the problem; the message,
				// analyzers.SelectFrom's, names them all.
				_, err := analyzers.SelectFrom(all, onlyIf(key == KeyEnable, list), onlyIf(key == KeyDisable, list))
				fail([]string{key, strconv.Itoa(i)}, "%v", err)
				badList = true
				continue
			}
			if key == KeyEnable {
				s.Enable = list
			} else {
				s.Disable = list
			}
		case key == KeyExcludePaths:
			res, errs := excludePaths(val)
			problems = append(problems, errs...)
			s.ExcludePaths = res
		case key == KeySeverity:
			if front == Plugin {
				fail([]string{key}, "%s: a golangci-lint module plugin cannot set a finding's severity: use golangci-lint's own severity.rules "+
					"(e.g. {linters: [ctrllint], text: \"^tombstone:\", severity: error}: a finding's text starts with its analyzer's name)", key)
				continue
			}
			sev, errs := severity(val, byName, known)
			problems = append(problems, errs...)
			s.Severity = sev
		case byName[key] != nil:
			opts, errs := analyzerOptions(byName[key], val)
			problems = append(problems, errs...)
			if len(opts) > 0 {
				if s.Options == nil {
					s.Options = make(map[string]map[string]string)
				}
				s.Options[key] = opts
			}
		default:
			others := KeyExcludePaths
			if front == Command {
				others += ", " + KeySeverity
			}
			fail([]string{key}, "unknown key %q: the keys are enable, disable, %s and an analyzer name for its options (%s)", key, others, known)
		}
	}
	switch {
	case badList:
	case s.Enable != nil && len(s.Enable) == 0:
		// A key without a value (`enable:`) is null: as good as absent.
		// An empty list reads as "run nothing", which analyzers.Select
		// would take as "enable everything".
		fail([]string{KeyEnable}, "enable is empty, which would run no analyzer: list analyzers, or remove it (%s)", known)
	default:
		if _, err := analyzers.SelectFrom(all, s.Enable, s.Disable); err != nil {
			fail([]string{KeyDisable}, "%v", err)
		}
	}
	if len(problems) > 0 {
		return Settings{}, problems
	}
	return s, nil
}

func onlyIf(cond bool, list []string) []string {
	if cond {
		return list
	}
	return nil
}

// analyzerList decodes a list of analyzer names; null is nil, [] is empty.
func analyzerList(raw json.RawMessage) ([]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	list := []string{}
	if err := strictUnmarshal(raw, &list); err != nil {
		return nil, errors.New("want a list of analyzer names, e.g. [tombstone, forget]")
	}
	return list, nil
}

// excludePaths decodes and compiles the list of regular expressions.
func excludePaths(raw json.RawMessage) ([]*regexp.Regexp, []Problem) {
	if isNull(raw) {
		return nil, nil
	}
	var list []json.RawMessage
	if err := strictUnmarshal(raw, &list); err != nil {
		return nil, []Problem{{Path: []string{KeyExcludePaths},
			Msg: KeyExcludePaths + ": want a list of regular expressions, e.g. ['^gen/', '_mock\\.go$']"}}
	}
	var res []*regexp.Regexp
	var problems []Problem
	for i, item := range list {
		path := []string{KeyExcludePaths, strconv.Itoa(i)}
		var pattern string
		if err := strictUnmarshal(item, &pattern); err != nil {
			problems = append(problems, Problem{Path: path, Msg: fmt.Sprintf("%s: item %d: want a regular expression (a string), got %s", KeyExcludePaths, i+1, item)})
			continue
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			problems = append(problems, Problem{Path: path, Msg: fmt.Sprintf("%s: item %d: %v", KeyExcludePaths, i+1, err)})
			continue
		}
		res = append(res, re)
	}
	return res, problems
}

// severity decodes the map of analyzer (or default) to severity.
func severity(raw json.RawMessage, byName map[string]*analysis.Analyzer, known string) (map[string]string, []Problem) {
	if isNull(raw) {
		return nil, nil
	}
	levels := strings.Join(Severities, ", ")
	var m map[string]json.RawMessage
	if err := strictUnmarshal(raw, &m); err != nil || m == nil {
		return nil, []Problem{{Path: []string{KeySeverity},
			Msg: fmt.Sprintf("%s: want a map of analyzer name (or %s) to severity (%s)", KeySeverity, SeverityDefault, levels)}}
	}
	out := make(map[string]string, len(m))
	var problems []Problem
	for _, key := range slices.Sorted(maps.Keys(m)) {
		path := []string{KeySeverity, key}
		if key != SeverityDefault && byName[key] == nil {
			problems = append(problems, Problem{Path: path, Msg: fmt.Sprintf("%s: unknown analyzer %q (%s, analyzers: %s)", KeySeverity, key, SeverityDefault, known)})
			continue
		}
		var level string
		if err := strictUnmarshal(m[key], &level); err != nil || !slices.Contains(Severities, level) {
			problems = append(problems, Problem{Path: path, Msg: fmt.Sprintf("%s: %s: want %s, got %s", KeySeverity, key, levels, bytes.TrimSpace(m[key]))})
			continue
		}
		out[key] = level
	}
	return out, problems
}

// analyzerOptions decodes an analyzer's options block into flag values.
func analyzerOptions(a *analysis.Analyzer, raw json.RawMessage) (map[string]string, []Problem) {
	if isNull(raw) {
		return nil, nil // `listerbypass:` with nothing under it
	}
	known := FlagNames(a)
	var block map[string]json.RawMessage
	if err := strictUnmarshal(raw, &block); err != nil || block == nil {
		msg := fmt.Sprintf("%s: want a map of options (%s)", a.Name, strings.Join(known, ", "))
		if len(known) == 0 {
			msg = a.Name + ": this analyzer has no options"
		}
		return nil, []Problem{{Path: []string{a.Name}, Msg: msg}}
	}
	opts := make(map[string]string)
	var problems []Problem
	for _, key := range slices.Sorted(maps.Keys(block)) {
		path := []string{a.Name, key}
		// golangci-lint (viper) lower-cases configuration keys.
		f := lookupFlag(a, key)
		if f == nil {
			msg := fmt.Sprintf("%s: unknown option %q (options: %s)", a.Name, key, strings.Join(known, ", "))
			if len(known) == 0 {
				msg = fmt.Sprintf("%s: unknown option %q: this analyzer has no options", a.Name, key)
			}
			problems = append(problems, Problem{Path: path, Msg: msg})
			continue
		}
		v, err := flagValue(f, block[key])
		if err != nil {
			problems = append(problems, Problem{Path: path, Msg: fmt.Sprintf("%s: option %s: %v", a.Name, f.Name, err)})
			continue
		}
		opts[f.Name] = v
	}
	return opts, problems
}

// FlagNames are the names of a's flags, its options.
func FlagNames(a *analysis.Analyzer) []string {
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
// against the flag's type without setting it (the flag's variable may be
// shared with every other user of the analyzer).
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
		return "", errors.New("this option cannot be set here (its flag has no type)")
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
	return "", fmt.Errorf("an option of type %T cannot be set here", g.Get())
}

func strictUnmarshal(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// Analyzers returns the analyzers of all that s selects, in all's order,
// with their options set on them: all must be instances whose flags are
// the caller's to set (analyzers.New, or the command's own).
func (s Settings) Analyzers(all []*analysis.Analyzer) ([]*analysis.Analyzer, error) {
	selected, err := analyzers.SelectFrom(all, s.Enable, s.Disable)
	if err != nil {
		return nil, err
	}
	for _, a := range selected {
		if err := Configure(a, s.Options[a.Name], nil); err != nil {
			return nil, err
		}
	}
	return selected, nil
}

// Configure sets an analyzer's options (flag name -> value) on a, except
// those skip reports true for (options the command line set itself).
func Configure(a *analysis.Analyzer, opts map[string]string, skip func(flag string) bool) error {
	for _, name := range slices.Sorted(maps.Keys(opts)) {
		if skip != nil && skip(name) {
			continue
		}
		if err := a.Flags.Set(name, opts[name]); err != nil {
			return fmt.Errorf("%s.%s: %v", a.Name, name, err)
		}
	}
	return nil
}

// Excluded reports whether exclude-paths drop findings in the file at rel,
// a slash-separated path relative to the base directory.
func (s Settings) Excluded(rel string) bool {
	return slices.ContainsFunc(s.ExcludePaths, func(re *regexp.Regexp) bool { return re.MatchString(rel) })
}

// SeverityOf is the severity of the named analyzer's findings: its own
// entry under severity, else severity.default, else Warning.
func (s Settings) SeverityOf(analyzer string) string {
	if l, ok := s.Severity[analyzer]; ok {
		return l
	}
	if l, ok := s.Severity[SeverityDefault]; ok {
		return l
	}
	return Warning
}
