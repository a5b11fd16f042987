package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers"
)

// load writes src as a .ctrllint.yml and loads it.
func load(t *testing.T, src string) (*File, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".ctrllint.yml")
	if err := os.WriteFile(path, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	return Load(path, ".ctrllint.yml", analyzers.New())
}

// Each kind of problem is refused with the file, the line and a message
// naming it.
func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string // the whole error
	}{
		{"unknown key", "enable: [tombstone]\ndisabled: [forget]\n",
			`.ctrllint.yml:2: unknown key "disabled": the keys are enable, disable, exclude-paths, severity and an analyzer name for its options (tombstone, forget`},
		{"unknown analyzer in enable", "enable:\n  - tombstone\n  - tombstones\n",
			`.ctrllint.yml:3: enable: unknown analyzer "tombstones" (analyzers: tombstone, forget`},
		{"unknown analyzers in disable", "disable: [nosuch, sharedowner, other]\n",
			`.ctrllint.yml:1: disable: unknown analyzer "nosuch", "other" (analyzers: tombstone`},
		{"enable not a list", "enable: tombstone\n",
			`.ctrllint.yml:1: enable: want a list of analyzer names, e.g. [tombstone, forget]`},
		{"empty enable", "\nenable: []\n",
			`.ctrllint.yml:2: enable is empty, which would run no analyzer: list analyzers, or remove it`},
		{"enabled and disabled", "enable: [tombstone, forget]\ndisable: [forget]\n",
			`.ctrllint.yml:2: forget both enabled and disabled: name each analyzer in one list`},
		{"nothing to run", "disable: [" + strings.Join(names(), ", ") + "]\n",
			`.ctrllint.yml:1: enable and disable leave no analyzer to run`},
		{"unknown option", "listerbypass:\n  all: true\n  strict: true\n",
			`.ctrllint.yml:3: listerbypass: unknown option "strict" (options: all)`},
		{"option of an analyzer without options", "tombstone:\n  all: true\n",
			`.ctrllint.yml:2: tombstone: unknown option "all": this analyzer has no options`},
		{"options not a map", "listerbypass: true\n",
			`.ctrllint.yml:1: listerbypass: want a map of options (all)`},
		{"option of the wrong type", "listerbypass:\n  all: \"yes\"\n",
			`.ctrllint.yml:2: listerbypass: option all: want true or false, got "yes"`},
		{"exclude-paths not a list", "exclude-paths: '^gen/'\n",
			`.ctrllint.yml:1: exclude-paths: want a list of regular expressions`},
		{"bad regexp", "exclude-paths:\n  - ^gen/\n  - 'a(b'\n",
			"`.ctrllint.yml:3: exclude-paths: item 2: error parsing regexp: missing closing ): `a(b`"[1:]},
		{"regexp not a string", "exclude-paths: [[x]]\n",
			`.ctrllint.yml:1: exclude-paths: item 1: want a regular expression (a string), got ["x"]`},
		{"severity not a map", "severity: error\n",
			`.ctrllint.yml:1: severity: want a map of analyzer name (or default) to severity (error, warning, note)`},
		{"bad severity", "severity:\n  default: note\n  tombstone: fatal\n",
			`.ctrllint.yml:3: severity: tombstone: want error, warning, note, got "fatal"`},
		{"severity of an unknown analyzer", "severity:\n  tombstones: error\n",
			`.ctrllint.yml:2: severity: unknown analyzer "tombstones" (default, analyzers: tombstone`},
		{"duplicate key", "enable: [tombstone]\ndisable: [forget]\nenable: [forget]\n",
			`.ctrllint.yml:3: key "enable" already set in map`},
		{"syntax error", "enable: [tombstone\n",
			`.ctrllint.yml:1: did not find expected ',' or ']'`},
		{"not a map", "- tombstone\n",
			`.ctrllint.yml: want a map of settings (enable, disable, exclude-paths, severity, analyzer options), not a list`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := load(t, tc.src)
			if err == nil {
				t.Fatalf("accepted: %+v", f)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n%s\nwant it to start with\n%s", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("more than one problem reported:\n%s", err)
			}
		})
	}
}

// All problems at once, one a line, in the order of the file.
func TestLoadErrorsAllAtOnce(t *testing.T) {
	_, err := load(t, `severity:
  tombstone: fatal
enable: [nosuch]
listerbypass:
  all: 1
exclude-paths: ['(']
bogus: true
`)
	if err == nil {
		t.Fatal("accepted")
	}
	want := []string{
		`.ctrllint.yml:2: severity: tombstone: want error, warning, note, got "fatal"`,
		`.ctrllint.yml:3: enable: unknown analyzer "nosuch"`,
		`.ctrllint.yml:5: listerbypass: option all: want true or false, got 1`,
		`.ctrllint.yml:6: exclude-paths: item 1: error parsing regexp`,
		`.ctrllint.yml:7: unknown key "bogus"`,
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d problems, want %d:\n%s", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("problem %d:\n%s\nwant it to start with\n%s", i+1, lines[i], w)
		}
	}
}

func names() []string {
	var out []string
	for _, a := range analyzers.All() {
		out = append(out, a.Name)
	}
	return out
}

func TestLoadValid(t *testing.T) {
	for _, src := range []string{"", "\n", "# nothing\n", "---\n", "enable:\ndisable:\nlisterbypass:\nexclude-paths:\nseverity:\n"} {
		f, err := load(t, src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if f.Enable != nil || f.Disable != nil || f.Options != nil || f.ExcludePaths != nil || f.Severity != nil {
			t.Errorf("%q: not empty: %+v", src, f.Settings)
		}
		if as, err := f.Analyzers(analyzers.New()); err != nil || len(as) != len(analyzers.All()) {
			t.Errorf("%q: %d analyzers, %v", src, len(as), err)
		}
		if got := f.SeverityOf("tombstone"); got != Warning {
			t.Errorf("%q: severity %q", src, got)
		}
	}

	f, err := load(t, `
enable: [tombstone, forget, listerbypass]
disable: [sharedowner]
listerbypass: {ALL: true}
exclude-paths: ['^gen/', '_mock\.go$']
severity: {default: note, tombstone: error}
`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Enable, []string{"tombstone", "forget", "listerbypass"}) || !slices.Equal(f.Disable, []string{"sharedowner"}) {
		t.Errorf("enable %v disable %v", f.Enable, f.Disable)
	}
	if f.Options["listerbypass"]["all"] != "true" {
		t.Errorf("options %v", f.Options)
	}
	for rel, want := range map[string]bool{"gen/x.go": true, "a/gen/x.go": false, "a/b_mock.go": true, "b_mock.go.txt": false, "../gen/x.go": false} {
		if got := f.Excluded(rel); got != want {
			t.Errorf("Excluded(%q) = %v, want %v", rel, got, want)
		}
	}
	for name, want := range map[string]string{"tombstone": "error", "forget": "note"} {
		if got := f.SeverityOf(name); got != want {
			t.Errorf("SeverityOf(%s) = %q, want %q", name, got, want)
		}
	}
	if f.Dir != filepath.Dir(f.Path) || !filepath.IsAbs(f.Path) {
		t.Errorf("path %q dir %q", f.Path, f.Dir)
	}
}

// A file is one YAML document: a --- may start it and a ... end it, with
// comments around them. A second document is refused at the line where
// it starts, whatever it holds (nothing, comments, settings, a syntax
// error): the YAML library would read the first and ignore it.
func TestLoadDocuments(t *testing.T) {
	for _, tc := range []struct {
		src    string
		enable string // the settings' enable list, or the error's start
	}{
		// One document.
		{"---\nenable: [tombstone]\n", "[tombstone]"},
		{"# ctrllint\n\n---\nenable: [tombstone]\n", "[tombstone]"},
		{"--- # ctrllint\nenable: [tombstone]\n", "[tombstone]"},
		{"--- {enable: [tombstone]}\n", "[tombstone]"},
		{"enable: [tombstone]\n...\n", "[tombstone]"},
		{"---\nenable: [tombstone]\n... # end\n# after the end\n...\n", "[tombstone]"},
		{"\ufeff---\r\nenable: [tombstone]\r\n...\r\n", "[tombstone]"},
		{"exclude-paths:\n  - '^---'\n  - |-\n   ---\n", "[]"},
		{"exclude-paths: ['---', \"...\"]\n", "[]"},
		// Comments only, one document or none: an empty configuration.
		{"---\n# enable: [tombstone]\n", "[]"},
		{"# enable: [tombstone]\n...\n", "[]"},
		{"---\n...\n", "[]"},
		// Two.
		{"enable: [tombstone]\n---\ndisable: [forget]\n", ".ctrllint.yml:2: a second YAML document: a configuration file is one document (only the first would be read)"},
		{"---\n---\nenable: [tombstone]\n", ".ctrllint.yml:2: a second YAML document"},
		{"# nothing yet\n---\n# still nothing\n--- # here\nenable: [tombstone]\n", ".ctrllint.yml:4: a second YAML document"},
		{"enable: [tombstone]\n\n---\n", ".ctrllint.yml:3: a second YAML document"},
		{"enable: [tombstone]\n---\n# disable: [forget]\n", ".ctrllint.yml:2: a second YAML document"},
		{"enable: [tombstone]\n--- {disable: [forget]}\n", ".ctrllint.yml:2: a second YAML document"},
		{"enable: [tombstone]\n...\ndisable: [forget]\n", ".ctrllint.yml:3: a second YAML document"},
		{"enable: [tombstone]\n...\n# the next\n---\ndisable: [forget]\n", ".ctrllint.yml:4: a second YAML document"},
		{"exclude-paths:\n  - |\n    x\n---\n", ".ctrllint.yml:4: a second YAML document"},
		{"enable: [tombstone]\n---\ndisable: [forget\n", ".ctrllint.yml:2: a second YAML document"},
		{"enable: [tombstone]\n---\nenable: [tombstone]\nenable: [forget]\n", ".ctrllint.yml:2: a second YAML document"},
		// A syntax error in the first comes first.
		{"enable: [tombstone\n---\ndisable: [forget]\n", ".ctrllint.yml:1: did not find expected ',' or ']'"},
	} {
		f, err := load(t, tc.src)
		switch {
		case strings.HasPrefix(tc.enable, "["):
			if err != nil {
				t.Errorf("%q: %v", tc.src, err)
			} else if got := "[" + strings.Join(f.Enable, " ") + "]"; got != tc.enable {
				t.Errorf("%q: enable %s, want %s", tc.src, got, tc.enable)
			}
		case err == nil:
			t.Errorf("%q: accepted: %+v", tc.src, f.Settings)
		case !strings.HasPrefix(err.Error(), tc.enable) || strings.Contains(err.Error(), "\n"):
			t.Errorf("%q: error\n%s\nwant one starting\n%s", tc.src, err, tc.enable)
		}
	}
}

// The plugin's front end takes every key but severity, and says what to
// use instead.
func TestDecodePluginRefusesSeverity(t *testing.T) {
	fields := map[string]json.RawMessage{"severity": json.RawMessage(`{"tombstone": "error"}`), "exclude-paths": json.RawMessage(`["^gen/"]`)}
	_, problems := Decode(fields, analyzers.New(), Plugin)
	if len(problems) != 1 || !strings.Contains(problems[0].Msg, "severity: a golangci-lint module plugin cannot set a finding's severity: use golangci-lint's own severity.rules") {
		t.Errorf("problems %v", problems)
	}
	s, problems := Decode(map[string]json.RawMessage{"exclude-paths": json.RawMessage(`["^gen/"]`)}, analyzers.New(), Plugin)
	if len(problems) != 0 || len(s.ExcludePaths) != 1 {
		t.Errorf("exclude-paths refused: %v", problems)
	}
	_, problems = Decode(map[string]json.RawMessage{"x": json.RawMessage(`1`)}, analyzers.New(), Plugin)
	if len(problems) != 1 || !strings.Contains(problems[0].Msg, "the keys are enable, disable, exclude-paths and an analyzer name") {
		t.Errorf("problems %v", problems)
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o777); err != nil {
		t.Fatal(err)
	}
	write := func(p string) {
		if err := os.WriteFile(p, nil, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	find := func(dir string) string {
		t.Helper()
		p, err := Find(dir)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Nothing in root's parents is assumed: only that the nearest file wins.
	above := find(root)
	if got := find(sub); got != above {
		t.Errorf("no file: found %q, want %q (what lies above the test directory)", got, above)
	}
	write(filepath.Join(root, ".ctrllint.yaml"))
	if got := find(sub); got != filepath.Join(root, ".ctrllint.yaml") {
		t.Errorf("found %q", got)
	}
	write(filepath.Join(root, "a", ".ctrllint.yml"))
	if got := find(sub); got != filepath.Join(root, "a", ".ctrllint.yml") {
		t.Errorf("the nearest file: found %q", got)
	}
	write(filepath.Join(root, "a", ".ctrllint.yaml"))
	if _, err := Find(sub); err == nil || !strings.Contains(err.Error(), "both "+filepath.Join(root, "a", ".ctrllint.yml")+" and .ctrllint.yaml: keep one") {
		t.Errorf("both names: %v", err)
	}
	// An entry that is not a file to read is found all the same, for Load
	// to refuse: skipping it would take the file above, or none.
	if err := os.Mkdir(filepath.Join(sub, ".ctrllint.yml"), 0o777); err != nil {
		t.Fatal(err)
	}
	if got := find(sub); got != filepath.Join(sub, ".ctrllint.yml") {
		t.Errorf("a directory: found %q", got)
	}
}
