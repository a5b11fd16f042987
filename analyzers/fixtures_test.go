package analyzers_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers"
)

// TestFixturesSuppress: every analyzer's fixture in the current module
// holds a finding suppressed with a reason. The analyzer reports a
// directive that suppresses nothing, so its own test proves the
// suppression under analysistest, and the command's and the golangci-lint
// plugin's fixture tests, which run the whole suite on these directories,
// prove it in their modes.
func TestFixturesSuppress(t *testing.T) {
	for _, a := range analyzers.All() {
		if a.Name == "suppression" {
			continue // its fixture is all directives
		}
		directive := regexp.MustCompile(`//ctrllint:ignore ` + a.Name + ` \S`)
		dir := filepath.Join("..", "testdata", "src", "current", a.Name)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Errorf("%s: no fixture directory: %v", a.Name, err)
			continue
		}
		found := false
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			src, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if directive.Match(src) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: no finding in %s is suppressed with `//ctrllint:ignore %s REASON`", a.Name, dir, a.Name)
		}
	}
}
