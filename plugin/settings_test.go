package plugin

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/analyzers/listerbypass"
)

func without(all []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(all), func(n string) bool { return slices.Contains(drop, n) })
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

// build runs the plugin as golangci-lint does: the registered constructor,
// then BuildAnalyzers.
func build(t *testing.T, settings any) []*analysis.Analyzer {
	t.Helper()
	newPlugin, err := register.GetPlugin(Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(settings)
	if err != nil {
		t.Fatalf("settings %v: %v", settings, err)
	}
	if mode := p.GetLoadMode(); mode != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q: the analyzers need type information", mode, register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	return as
}

// settings are written as golangci-lint hands them over: YAML decoded by
// viper into maps, []any and scalars.
func TestAnalyzerSelection(t *testing.T) {
	all := names(analyzers.All())
	for _, tc := range []struct {
		name     string
		settings any
		want     []string
	}{
		{"no settings block", nil, all},
		{"empty block", map[string]any{}, all},
		{"empty disable", map[string]any{"disable": []any{}}, all},
		{"null enable and disable", map[string]any{"enable": nil, "disable": nil}, all},
		{"enable", map[string]any{"enable": []any{"forget", "tombstone"}}, []string{"tombstone", "forget"}},
		{"disable", map[string]any{"disable": []any{"sharedowner"}}, without(all, "sharedowner")},
		{"disable two", map[string]any{"disable": []any{"sharedowner", "listerbypass"}}, without(all, "sharedowner", "listerbypass")},
		// The rule is analyzers.Select's, which every front end shares.
		{"enable and disable", map[string]any{"enable": []any{"tombstone", "forget"}, "disable": []any{"queuedone"}}, []string{"tombstone", "forget"}},
		{"options only", map[string]any{"listerbypass": map[string]any{"all": true}}, all},
		{"null options", map[string]any{"listerbypass": nil}, all},
		{"options of a disabled analyzer", map[string]any{"disable": []any{"listerbypass"}, "listerbypass": map[string]any{"all": true}}, without(all, "listerbypass")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := names(build(t, tc.settings))
			if !slices.Equal(got, tc.want) {
				t.Errorf("analyzers %v, want %v", got, tc.want)
			}
		})
	}
}

// Only analyzers with options are copies; the others are ctrllint's own.
func TestAnalyzersAreCopiesOnlyWhenConfigurable(t *testing.T) {
	for _, a := range build(t, nil) {
		orig := lookup(t, a.Name)
		hasFlags := len(flagNames(orig)) > 0
		switch {
		case hasFlags && a == orig:
			t.Errorf("%s has options but is the shared analyzer, not a configured copy", a.Name)
		case !hasFlags && a != orig:
			t.Errorf("%s has no options but is a copy", a.Name)
		}
		if a.Doc != orig.Doc || a.URL != orig.URL || !slices.Equal(a.Requires, orig.Requires) {
			t.Errorf("%s: the copy differs from the analyzer beyond its run function", a.Name)
		}
	}
	if lookup(t, "listerbypass") != listerbypass.Analyzer {
		t.Fatal("analyzers.All does not hold listerbypass.Analyzer")
	}
}

func lookup(t *testing.T, name string) *analysis.Analyzer {
	t.Helper()
	for _, a := range analyzers.All() {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no analyzer %s", name)
	return nil
}

func TestParseSettingsOptions(t *testing.T) {
	s, err := ParseSettings(map[string]any{
		"disable":      []any{"sharedowner"},
		"listerbypass": map[string]any{"ALL": true}, // viper may hand keys over in any case
	}, analyzers.All())
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Options["listerbypass"]["all"]; got != "true" {
		t.Errorf("listerbypass all = %q, want true (options %v)", got, s.Options)
	}
	if !slices.Equal(s.Disable, []string{"sharedowner"}) || s.Enable != nil {
		t.Errorf("enable %v disable %v", s.Enable, s.Disable)
	}
}

// Each invalid settings block is refused, with a message that names the
// problem.
func TestSettingsErrors(t *testing.T) {
	all := names(analyzers.All())
	for _, tc := range []struct {
		name     string
		settings any
		want     []string // substrings of the error
	}{
		{"unknown key", map[string]any{"disabled": []any{"sharedowner"}},
			[]string{`ctrllint settings: unknown key "disabled"`, "enable, disable", strings.Join(all, ", ")}},
		{"unknown analyzer in enable", map[string]any{"enable": []any{"tombstone", "tombstones"}},
			[]string{`enable: unknown analyzer "tombstones"`}},
		{"unknown analyzer in disable", map[string]any{"disable": []any{"nosuch"}},
			[]string{`disable: unknown analyzer "nosuch"`, "(analyzers: tombstone, forget"}},
		// The rule is analyzers.Select's, which every front end shares.
		{"enabled and disabled", map[string]any{"enable": []any{"tombstone", "forget"}, "disable": []any{"forget"}},
			[]string{"ctrllint settings: forget both enabled and disabled"}},
		{"enable not a list", map[string]any{"enable": "tombstone"},
			[]string{"enable: want a list of analyzer names"}},
		{"enable empty", map[string]any{"enable": []any{}},
			[]string{"enable is empty"}},
		{"disable everything", map[string]any{"disable": toAny(all)},
			[]string{"ctrllint settings: enable and disable leave no analyzer to run"}},
		{"unknown option", map[string]any{"listerbypass": map[string]any{"strict": true}},
			[]string{`listerbypass: unknown option "strict" (options: all)`}},
		{"option of an analyzer without options", map[string]any{"tombstone": map[string]any{"all": true}},
			[]string{`tombstone: unknown option "all": this analyzer has no options`}},
		{"options not a map", map[string]any{"listerbypass": true},
			[]string{"listerbypass: want a map of options (all)"}},
		{"option of the wrong type", map[string]any{"listerbypass": map[string]any{"all": "yes"}},
			[]string{`listerbypass: option all: want true or false, got "yes"`}},
		{"settings not a map", "disable sharedowner",
			[]string{"ctrllint settings: want a map"}},
		{"every problem at once", map[string]any{"enable": []any{"x"}, "disable": []any{"y"}, "z": 1},
			[]string{`enable: unknown analyzer "x"`, `disable: unknown analyzer "y"`, `unknown key "z"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(tc.settings)
			if err == nil {
				as, _ := p.BuildAnalyzers()
				t.Fatalf("settings %v accepted (analyzers %v); want an error", tc.settings, names(as))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not say %q", err, w)
				}
			}
		})
	}
}

// Two plugin instances with different options each hold their own, and
// neither touches the analyzers the ctrllint command uses.
func TestOptionsDoNotLeakBetweenInstances(t *testing.T) {
	lbAll := func(p *Plugin) string {
		for _, a := range p.analyzers {
			if a.Name == "listerbypass" {
				return a.Flags.Lookup("all").Value.String()
			}
		}
		t.Fatal("no listerbypass in the plugin")
		return ""
	}
	strict, err := New(map[string]any{"listerbypass": map[string]any{"all": true}})
	if err != nil {
		t.Fatal(err)
	}
	lax, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := lbAll(strict.(*Plugin)); got != "true" {
		t.Errorf("the configured instance has all=%s", got)
	}
	if got := lbAll(lax.(*Plugin)); got != "false" {
		t.Errorf("the default instance has all=%s: options leaked between instances", got)
	}
	if v := listerbypass.Analyzer.Flags.Lookup("all").Value.String(); v != "false" {
		t.Errorf("the command's listerbypass has all=%s: options leaked out of the plugin", v)
	}
}

func fixture() string { return filepath.Join("..", "testdata", "src", "current") }

// recorder collects analysistest's complaints instead of failing.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// The real listerbypass, configured through the settings: all=true reports
// what the fixture expects under -listerbypass.all, the default does not.
func TestListerbypassAllFromSettings(t *testing.T) {
	configured := func(t *testing.T, settings any) *analysis.Analyzer {
		t.Helper()
		all := analyzers.New()
		s, err := ParseSettings(settings, all)
		if err != nil {
			t.Fatal(err)
		}
		s.Enable = []string{"listerbypass"}
		as, err := s.Analyzers(all)
		if err != nil {
			t.Fatal(err)
		}
		if len(as) != 1 || as[0] == listerbypass.Analyzer {
			t.Fatalf("want one fresh listerbypass, got %v", names(as))
		}
		return as[0]
	}
	t.Run("all", func(t *testing.T) {
		analysistest.Run(t, fixture(), configured(t, map[string]any{"listerbypass": map[string]any{"all": true}}), "./listerbypassall")
	})
	t.Run("default", func(t *testing.T) {
		r := &recorder{}
		analysistest.Run(r, fixture(), configured(t, nil), "./listerbypassall")
		// The fixture's one expectation is for -all: unmet, and nothing else.
		if len(r.errs) != 1 || !strings.Contains(r.errs[0], "no diagnostic was reported matching") {
			t.Errorf("want exactly the -all expectation unmet, got:\n%s", strings.Join(r.errs, "\n"))
		}
	})
}
