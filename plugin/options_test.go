package plugin

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/analyzers/listerbypass"
)

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
