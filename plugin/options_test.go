package plugin

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/analyzers/listerbypass"
)

// fake is shaped like listerbypass: a flag bound to a package variable that
// the run function reads.
var (
	fakeStrict bool
	fake       = &analysis.Analyzer{
		Name: "fake",
		Doc:  "reads its flag",
		Run: func(*analysis.Pass) (any, error) {
			return fakeStrict, nil
		},
	}
)

func init() {
	fake.Flags.BoolVar(&fakeStrict, "strict", false, "a flag read through a package variable")
}

// Two plugin instances with different options, running passes
// concurrently, each see their own value; afterwards the variable holds
// what it held before. Run with -race (make unit does not; go test -race
// ./plugin does).
func TestOptionsDoNotLeakBetweenInstances(t *testing.T) {
	all := []*analysis.Analyzer{fake}
	strict, err := ParseSettings(map[string]any{"fake": map[string]any{"strict": true}}, all)
	if err != nil {
		t.Fatal(err)
	}
	lax, err := ParseSettings(map[string]any{"fake": map[string]any{"strict": false}}, all)
	if err != nil {
		t.Fatal(err)
	}
	noOptions, err := ParseSettings(nil, all)
	if err != nil {
		t.Fatal(err)
	}
	instances := map[*analysis.Analyzer]bool{
		strict.Analyzers(all)[0]:    true,
		lax.Analyzers(all)[0]:       false,
		noOptions.Analyzers(all)[0]: false, // the flag's default
	}
	var wg sync.WaitGroup
	errs := make(chan error, 3*200)
	for a, want := range instances {
		if a == fake {
			t.Fatal("a configured analyzer is the shared one")
		}
		for range 200 {
			wg.Go(func() {
				got, err := a.Run(&analysis.Pass{})
				switch {
				case err != nil:
					errs <- err
				case got != want:
					errs <- fmt.Errorf("a pass of the instance with strict=%v saw strict=%v", want, got)
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if fakeStrict {
		t.Error("the flag variable still holds an instance's value after the passes")
	}
}

// The value the variable held before the passes (set by a command line,
// say) is what it holds after them.
func TestOptionsRestoreThePreviousValue(t *testing.T) {
	all := []*analysis.Analyzer{fake}
	if err := fake.Flags.Set("strict", "true"); err != nil {
		t.Fatal(err)
	}
	defer fake.Flags.Set("strict", "false")
	s, err := ParseSettings(nil, all)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Analyzers(all)[0].Run(&analysis.Pass{})
	if err != nil {
		t.Fatal(err)
	}
	if got != false {
		t.Error("a pass without options saw the command line's value, not the default")
	}
	if !fakeStrict {
		t.Error("the command line's value was not restored")
	}
}

func fixture() string { return filepath.Join("..", "testdata", "src", "current") }

// recorder collects analysistest's complaints instead of failing.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// The real listerbypass, configured through the settings: all=true reports
// what the fixture expects under -listerbypass.all, the default does not;
// and listerbypass.Analyzer's own flag is untouched.
func TestListerbypassAllFromSettings(t *testing.T) {
	configured := func(t *testing.T, settings any) *analysis.Analyzer {
		t.Helper()
		s, err := ParseSettings(settings, analyzers.All())
		if err != nil {
			t.Fatal(err)
		}
		s.Enable = []string{"listerbypass"}
		as := s.Analyzers(analyzers.All())
		if len(as) != 1 || as[0] == listerbypass.Analyzer {
			t.Fatalf("want one configured copy of listerbypass, got %v", names(as))
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
	if v := listerbypass.Analyzer.Flags.Lookup("all").Value.String(); v != "false" {
		t.Errorf("listerbypass.Analyzer's all flag is %s after the runs", v)
	}
}
