package analyzers_test

import (
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ctrllint/ctrllint/internal/crash"
	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/synthetic"
)

// stillAnalysed are the functions that analyse a function of a generated
// file, as they should (docs/README.md, "Generated files"):
//
//   - summaries: what they find is not a finding there but what other code
//     is told of it (facts for the importing packages, the owner references
//     a helper builds for its callers in the package);
//   - roots: cachesync takes every function no other calls as start-up
//     code that may start workers or act on the caches, and follows the
//     calls it makes, so its findings can be in the hand-written functions
//     a generated root calls. A generated function is dismissed at once
//     (it owns no informer and waits for none).
var stillAnalysed = []string{
	"analyzers/listerbypass.(*summariser).export.func1",
	"analyzers/tombstone.(*checker).exportHelperFacts.func1",
	"analyzers/ownerkind.(*checker).checkDecl",
	"analyzers/cachesync.(*checker).checkRoot",
	"analyzers/cachesync.(*checker).checkActsRoot",
}

// TestGeneratedFilesNotChecked: no analyzer checks a function declared in
// a generated file for findings (issue 29: a 50,000-line generated file
// cost minutes, and everything found there was dropped). Every analysis of
// a function is wrapped in crash.At, which tells the test which function
// of which analyzer analysed which position. What generated code does is
// still known where hand-written code depends on it: the controller's
// finding is there, explained by the generated defaulter it calls.
func TestGeneratedFilesNotChecked(t *testing.T) {
	cfg, pkgs, _ := loadSynthetic(t, 3)
	if len(pkgs) != 1 {
		t.Fatalf("loaded %d packages, want the synthetic one", len(pkgs))
	}
	fset := pkgs[0].Fset
	var (
		mu      sync.Mutex
		checked = make(map[string]bool) // "caller at file:line"
		seen    int                     // analyses of functions of the package's files
	)
	stop := crash.Observe(fset, func(pos token.Pos, caller string) {
		p := fset.Position(pos)
		mu.Lock()
		defer mu.Unlock()
		seen++
		if !slices.Contains(synthetic.Generated, filepath.Base(p.Filename)) {
			return
		}
		for _, s := range stillAnalysed {
			if strings.HasSuffix(caller, s) {
				return
			}
		}
		caller = strings.TrimPrefix(caller, "github.com/ctrllint/ctrllint/")
		checked[caller+" at "+filepath.Base(p.Filename)+":"+itoa(p.Line)] = true
	})
	res, err := driver.Run(cfg, pkgs)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Fatal("crash.At observed nothing: the test sees no analysis at all")
	}
	if len(checked) > 0 {
		var lines []string
		for l := range checked {
			lines = append(lines, l)
		}
		sort.Strings(lines)
		t.Errorf("%d functions of generated files checked for findings that would be dropped:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, filepath.Base(f.Pos.File)+":"+itoa(f.Pos.Line)+": "+f.Message)
	}
	want := "controller.go:31: obj from c.indexer.GetByKey is modified (SetObjectDefaults_Widget0(...), which does in.Spec.Replicas = ... at zz_generated.defaults.go:23) without DeepCopy"
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("findings:\n%s\nwant one, the hand-written controller's write through the generated defaulter:\n%s ...", strings.Join(got, "\n"), want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
