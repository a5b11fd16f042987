package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/ctrllint/ctrllint/analyzers"
)

// docBlock is the YAML between the markers <!-- NAME:begin ... --> and
// <!-- NAME:end --> of a page in docs/.
func docBlock(t *testing.T, page, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", page))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- " + name + ":begin[^>]*-->\n```yaml\n(.*?)```\n<!-- " + name + ":end -->")
	m := re.FindSubmatch(data)
	if m == nil {
		t.Fatalf("docs/%s has no ```yaml block between <!-- %s:begin --> and <!-- %s:end -->", page, name, name)
	}
	return string(m[1])
}

// docs/config.md's example is a valid file and sets every option of every
// analyzer that has options, so that a new option is documented there.
func TestDocsExample(t *testing.T) {
	src := docBlock(t, "config.md", "example")
	f, err := load(t, src)
	if err != nil {
		t.Fatalf("docs/config.md's example:\n%v", err)
	}
	for _, a := range analyzers.All() {
		for _, opt := range FlagNames(a) {
			if _, ok := f.Options[a.Name][opt]; !ok {
				t.Errorf("docs/config.md's example does not set %s's option %s", a.Name, opt)
			}
		}
	}
	for _, key := range []string{KeyEnable, KeyDisable, KeyExcludePaths, KeySeverity, SeverityDefault} {
		if !regexp.MustCompile(`(?m)^\s*` + key + `:`).MatchString(src) {
			t.Errorf("docs/config.md's example lacks the key %s", key)
		}
	}
}

// docs/golangci-lint.md's .golangci.yml holds valid plugin settings.
func TestDocsGolangci(t *testing.T) {
	js, err := yaml.YAMLToJSONStrict([]byte(docBlock(t, "golangci-lint.md", "golangci")))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Linters struct {
			Settings struct {
				Custom map[string]struct {
					Settings map[string]json.RawMessage `json:"settings"`
				} `json:"custom"`
			} `json:"settings"`
		} `json:"linters"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	settings := doc.Linters.Settings.Custom["ctrllint"].Settings
	if len(settings) == 0 {
		t.Fatal("no linters.settings.custom.ctrllint.settings")
	}
	if _, problems := Decode(settings, analyzers.New(), Plugin); len(problems) > 0 {
		t.Errorf("docs/golangci-lint.md's settings: %v", problems)
	}
	if !strings.Contains(string(js), `"exclude-paths"`) {
		t.Error("docs/golangci-lint.md's settings do not show exclude-paths")
	}
}

// YAML 1.1 booleans, as docs/config.md says: yes is true in the file.
func TestYAMLBooleans(t *testing.T) {
	f, err := load(t, "listerbypass: {all: yes}\n")
	if err != nil || f.Options["listerbypass"]["all"] != "true" {
		t.Errorf("all: yes: %v %v", err, f)
	}
}
