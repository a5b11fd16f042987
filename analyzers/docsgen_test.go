package analyzers_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/plugin"
)

// The blocks below are what docs and example configurations would
// otherwise list by hand, and let drift: the golangci-lint example's
// plugin block (its description, the analyzers in its comments, every
// analyzer option at its default), that block again in
// docs/golangci-lint.md with the options' table, and nogo's configuration
// in docs/bazel.md. `make docs` writes them; TestGeneratedBlocks fails
// while one is stale.

const golangciExample = "../.golangci-example.yml"

// option is one analyzer flag, as the golangci-lint plugin's settings and
// nogo's analyzer_flags set it.
type option struct {
	analyzer, name, typ, def, usage string
}

// options are the flags of every analyzer, from fresh instances (New):
// reading them sets nothing that All's analyzers use.
func options() []option {
	var out []option
	for _, a := range analyzers.New() {
		a.Flags.VisitAll(func(f *flag.Flag) {
			typ := "string"
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				typ = "bool"
			} else if g, ok := f.Value.(flag.Getter); ok {
				typ = fmt.Sprintf("%T", g.Get())
			}
			out = append(out, option{a.Name, f.Name, typ, f.DefValue, f.Usage})
		})
	}
	return out
}

func suiteNames() []string {
	var out []string
	for _, a := range analyzers.All() {
		out = append(out, a.Name)
	}
	return out
}

// wrap breaks text into lines of at most width columns, each starting with
// prefix.
func wrap(prefix, text string, width int) string {
	var b strings.Builder
	line := prefix
	for _, w := range strings.Fields(text) {
		if line != prefix && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = prefix
		}
		if line != prefix {
			line += " "
		}
		line += w
	}
	return b.String() + line + "\n"
}

// golangciPlugin is the example's block under linters.settings.custom.ctrllint,
// after `type: module`, indented as it is there.
func golangciPlugin() string {
	const ind = "        "
	all := strings.Join(suiteNames(), ", ")
	var b strings.Builder
	b.WriteString(ind + "description: " + quoteYAML("Kubernetes controller bugs, by ctrllint's analyzers: "+all) + "\n")
	b.WriteString(ind + "original-url: https://github.com/ctrllint/ctrllint\n")
	b.WriteString(ind + "settings:\n")
	b.WriteString(wrap(ind+"  # ", "Run every analyzer but these. `enable: [tombstone, forget]` runs only those; disable then removes from them (naming an analyzer in both is an error). The analyzers (`ctrllint -list`): "+all+".", 78))
	b.WriteString(ind + "  disable: []\n")
	b.WriteString(ind + "  # Each analyzer's options (its command-line flags), at their defaults.\n")
	last := ""
	for _, o := range options() {
		if o.analyzer != last {
			b.WriteString(ind + "  " + o.analyzer + ":\n")
			last = o.analyzer
		}
		b.WriteString(wrap(ind+"    # ", upperFirst(o.usage)+".", 78))
		b.WriteString(ind + "    " + o.name + ": " + yamlValue(o) + "\n")
	}
	return b.String()
}

func quoteYAML(s string) string { return fmt.Sprintf("%q", s) } // ASCII: YAML's double-quoted style is Go's

func yamlValue(o option) string {
	if o.typ == "string" {
		return quoteYAML(o.def)
	}
	return o.def
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// optionsTable is docs/golangci-lint.md's list of the analyzers' options.
func optionsTable() string {
	var b strings.Builder
	b.WriteString("| analyzer | option | type | default | meaning | command line |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, o := range options() {
		fmt.Fprintf(&b, "| [%s](analyzers/%s.md) | `%s` | %s | `%s` | %s | `-%s.%s` |\n", o.analyzer, o.analyzer, o.name, o.typ, o.def, o.usage, o.analyzer, o.name)
	}
	return b.String()
}

// nogoConfig is docs/bazel.md's nogo_config.json: a base that keeps other
// repositories' code out, and every analyzer option at its default in
// analyzer_flags (whose values are strings, in the flag's syntax).
func nogoConfig(t *testing.T) string {
	cfg := map[string]map[string]any{
		"_base": {
			"description": "applies to every analyzer, named here or not",
			"exclude_files": map[string]string{
				"external/": "other repositories' code (WORKSPACE mode; under Bzlmod nogo checks only the main repository)",
			},
		},
	}
	for _, o := range options() {
		if cfg[o.analyzer] == nil {
			cfg[o.analyzer] = map[string]any{"analyzer_flags": map[string]string{}}
		}
		cfg[o.analyzer]["analyzer_flags"].(map[string]string)[o.name] = o.def
	}
	out, err := json.MarshalIndent(cfg, "", "  ") // keys sorted: _base first
	if err != nil {
		t.Fatal(err)
	}
	return "```json\n" + string(out) + "\n```\n"
}

// exampleInDocs is .golangci-example.yml as docs/golangci-lint.md shows it:
// the configuration without the file's opening comment.
func exampleInDocs(t *testing.T) string {
	b, err := os.ReadFile(golangciExample)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if i := strings.Index(s, "\nversion:"); i >= 0 {
		s = s[i+1:]
	}
	var out strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if t := strings.TrimSpace(l); !strings.HasPrefix(t, "# plugin:begin") && t != "# plugin:end" {
			out.WriteString(l)
		}
	}
	return "```yaml\n" + out.String() + "```\n"
}

// customGCLInDocs is .custom-gcl.yml without its opening comment.
func customGCLInDocs(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join("..", ".custom-gcl.yml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if i := strings.Index(s, "\nversion:"); i >= 0 {
		s = s[i+1:]
	}
	return "```yaml\n" + s + "```\n"
}

func TestGeneratedBlocks(t *testing.T) {
	// The example first: docs/golangci-lint.md copies it.
	block(t, golangciExample, "# plugin:begin (generated by make docs)", "# plugin:end", golangciPlugin())
	golangci := filepath.Join("..", "docs", "golangci-lint.md")
	block(t, golangci, mdBegin("golangci-example"), mdEnd("golangci-example"), exampleInDocs(t))
	block(t, golangci, mdBegin("options"), mdEnd("options"), optionsTable())
	block(t, golangci, mdBegin("custom-gcl"), mdEnd("custom-gcl"), customGCLInDocs(t))
	block(t, filepath.Join("..", "docs", "bazel.md"), mdBegin("nogo-config"), mdEnd("nogo-config"), nogoConfig(t))
}

func mdBegin(name string) string { return "<!-- " + name + ":begin (generated by make docs) -->" }
func mdEnd(name string) string   { return "<!-- " + name + ":end -->" }

// block checks (with -update, rewrites) what lies between the lines begin
// and end in path: the line after begin up to the line end.
func block(t *testing.T, path, begin, end, content string) {
	t.Helper()
	cur, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(cur), begin+"\n")
	_, after, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the markers %q and %q", path, begin, end)
	}
	// end keeps the indentation of its line.
	indent := before[strings.LastIndex(before, "\n")+1:]
	check(t, path, before+begin+"\n"+content+indent+end+after)
}

// TestExampleConfigs: the golangci-lint example is YAML whose plugin
// settings the plugin accepts, and its description and comments name every
// analyzer.
func TestExampleConfigs(t *testing.T) {
	b, err := os.ReadFile(golangciExample)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Linters struct {
			Enable   []string
			Settings struct {
				Custom map[string]struct {
					Type        string
					Description string
					Settings    any
				}
			}
		}
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("%s: %v", golangciExample, err)
	}
	c, ok := cfg.Linters.Settings.Custom[plugin.Name]
	if !ok || c.Type != "module" {
		t.Fatalf("%s: no module plugin %s under linters.settings.custom", golangciExample, plugin.Name)
	}
	if _, err := plugin.ParseSettings(c.Settings, analyzers.New()); err != nil {
		t.Errorf("%s: the plugin refuses the example's settings: %v", golangciExample, err)
	}
	for _, n := range suiteNames() {
		if !regexp.MustCompile(`\b` + n + `\b`).MatchString(c.Description) {
			t.Errorf("%s: the description does not name %s", golangciExample, n)
		}
	}
}

// nogoFileConfig is one analyzer's entry in nogo's JSON configuration
// (rules_go's go/nogo.rst, "Configuring analyzers").
type nogoFileConfig struct {
	Description   string            `json:"description"`
	OnlyFiles     map[string]string `json:"only_files"`
	ExcludeFiles  map[string]string `json:"exclude_files"`
	AnalyzerFlags map[string]string `json:"analyzer_flags"`
}

// TestBazelDoc: every JSON block of docs/bazel.md is a nogo configuration
// nogo would accept: valid JSON, keyed by analyzer names (or _base), only
// nogo's keys, regular expressions that compile, and analyzer_flags that
// the analyzer has, with values its flags parse.
func TestBazelDoc(t *testing.T) {
	path := filepath.Join("..", "docs", "bazel.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(string(b), -1)
	if len(blocks) == 0 {
		t.Fatalf("%s has no ```json block", path)
	}
	byName := map[string]*flag.FlagSet{}
	for _, a := range analyzers.New() {
		byName[a.Name] = &a.Flags
	}
	for _, m := range blocks {
		dec := json.NewDecoder(strings.NewReader(m[1]))
		dec.DisallowUnknownFields()
		var cfg map[string]nogoFileConfig
		if err := dec.Decode(&cfg); err != nil {
			t.Errorf("%s: a ```json block is not a nogo configuration: %v\n%s", path, err, m[1])
			continue
		}
		for name, c := range cfg {
			fs, ok := byName[name]
			if !ok && name != "_base" {
				t.Errorf("%s: nogo configuration key %q is no analyzer's name", path, name)
			}
			for re := range mapsKeys(c.OnlyFiles, c.ExcludeFiles) {
				if _, err := regexp.Compile(re); err != nil {
					t.Errorf("%s: %s: %v", path, name, err)
				}
			}
			for f, v := range c.AnalyzerFlags {
				if fs == nil || fs.Lookup(f) == nil {
					t.Errorf("%s: %s has no flag %q", path, name, f)
				} else if err := fs.Set(f, v); err != nil {
					t.Errorf("%s: %s: flag %s=%q: %v", path, name, f, v, err)
				}
			}
		}
	}
}

func mapsKeys(ms ...map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, m := range ms {
		for k := range m {
			out[k] = true
		}
	}
	return out
}

// countWords are the numbers a sentence may spell out.
var countWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}

// countExempt are the files whose analyzer counts are not the suite's
// size, and why.
var countExempt = map[string]string{
	"docs/performance.md": "measurements at past commits, of the analyzers added then",
}

// docFiles are the documents and example configurations users read.
func docFiles(t *testing.T) []string {
	files := []string{"README.md", "CONTRIBUTING.md", ".golangci-example.yml", ".custom-gcl.yml", ".pre-commit-hooks.yaml"}
	err := filepath.WalkDir(filepath.Join("..", "docs"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, filepath.ToSlash(strings.TrimPrefix(path, ".."+string(filepath.Separator))))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCountsInDocs: a number of analyzers in the docs ("the five
// analyzers", "16 analyzers") is the suite's, len(All()): the docs said
// "the five analyzers" when there were nine. Better still, say no number.
func TestCountsInDocs(t *testing.T) {
	n := len(analyzers.All())
	count := regexp.MustCompile(`(?i)\b(\d+|` + strings.Join(countWords, "|") + `)\s+(?:[\w'-]+\s+)?analy[sz]ers\b`)
	for _, f := range docFiles(t) {
		if _, ok := countExempt[f]; ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range count.FindAllStringSubmatch(line, -1) {
				got, err := strconv.Atoi(m[1])
				if err != nil {
					got = slices.Index(countWords, strings.ToLower(m[1]))
				}
				if got != n {
					t.Errorf("%s:%d: %q: the suite has %d analyzers (analyzers.All); better, say no number", f, i+1, m[0], n)
				}
			}
		}
	}
	for f := range countExempt {
		if _, err := os.Stat(filepath.Join("..", f)); err != nil {
			t.Errorf("countExempt names %s: %v", f, err)
		}
	}
}

// TestOptionsDocumented: every analyzer option is on its analyzer's page,
// in its command-line spelling (the page comes from doc.go).
func TestOptionsDocumented(t *testing.T) {
	for _, o := range options() {
		info, ok := analyzers.Lookup(o.analyzer)
		if !ok {
			t.Fatalf("no documentation for %s", o.analyzer)
		}
		if flag := "-" + o.analyzer + "." + o.name; !strings.Contains(info.Markdown, flag) {
			t.Errorf("analyzers/%s/doc.go does not mention its option %s", o.analyzer, flag)
		}
	}
}
