package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// An entry is what the benchmark needs of a corpus.json entry
// (hack/corpus/config.go has the whole description): its name, and where
// `go run ./hack/corpus run` materialises it and which patterns it analyses
// there.
type entry struct {
	Name     string   `json:"name"`
	Module   string   `json:"module"`
	Version  string   `json:"version"`
	Patterns []string `json:"patterns"`
	Exclude  []string `json:"exclude"`
}

// packages is what the entry analyses: its patterns, or, when corpus.json
// excludes packages from them (cert-manager's Venafi issuer, whose module
// the proxy does not serve), the list hack/corpus wrote when it
// materialised the entry.
func (e entry) packages(corpusCache string) ([]string, error) {
	if len(e.Exclude) == 0 {
		return e.Patterns, nil
	}
	data, err := os.ReadFile(filepath.Join(e.dir(corpusCache), "packages.txt"))
	if err != nil {
		return nil, fmt.Errorf("%s excludes packages, and its list of the rest is missing: %v (go run ./hack/corpus run -only %s)", e.Name, err, e.Name)
	}
	return strings.Fields(string(data)), nil
}

type corpusConfig struct {
	Entries []entry `json:"entries"`
}

// loadCorpus reads corpus.json, ignoring the fields the benchmark does not
// use (hack/corpus validates them).
func loadCorpus(file string) (*corpusConfig, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var c corpusConfig
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	for _, e := range c.Entries {
		if e.Name == "" || len(e.Patterns) == 0 {
			return nil, fmt.Errorf("%s: every entry needs a name and patterns", file)
		}
	}
	return &c, nil
}

func (c *corpusConfig) entry(name string) (entry, bool) {
	for _, e := range c.Entries {
		if e.Name == name {
			return e, true
		}
	}
	return entry{}, false
}

// lookup returns the named entries, in the order given.
func (c *corpusConfig) lookup(names []string) ([]entry, error) {
	var out []entry
	for _, n := range names {
		e, ok := c.entry(n)
		if !ok {
			known := make([]string, len(c.Entries))
			for i, e := range c.Entries {
				known[i] = e.Name
			}
			return nil, fmt.Errorf("no entry %q in corpus.json (known: %s)", n, strings.Join(known, ", "))
		}
		out = append(out, e)
	}
	return out, nil
}

// dir is where hack/corpus materialises e under cache (materialise.go).
func (e entry) dir(cache string) string {
	if e.Module == "" {
		return filepath.Join(cache, e.Name)
	}
	return filepath.Join(cache, e.Name+"@"+e.Version)
}

// materialised reports whether hack/corpus has built e's wrapper module
// (it writes the stamp last).
func (e entry) materialised(cache string) bool {
	_, err := os.Stat(filepath.Join(e.dir(cache), ".materialised"))
	return err == nil
}

// defaultCorpusCache is hack/corpus's default cache (main.go).
func defaultCorpusCache() string {
	if d := os.Getenv("CTRLLINT_CORPUS"); d != "" {
		return d
	}
	return filepath.Join(userCache(), "ctrllint", "corpus")
}

func userCache() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return os.TempDir()
	}
	return d
}

// locate finds a file of the repository from its root (make runs the
// benchmark there) or from this directory (go test).
func locate(rel string) string {
	if _, err := os.Stat(rel); err == nil {
		return rel
	}
	if up := filepath.Join("..", "..", rel); exists(up) {
		return up
	}
	return rel
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// materialise runs hack/corpus on an entry that is not materialised yet:
// the corpus command builds the wrapper module (and, as it always does,
// analyses it, which also warms the build cache). Its verdict on the
// triage is not the benchmark's business; only the stamp counts.
func materialise(e entry, cache, ctrllint string) error {
	if e.materialised(cache) {
		return nil
	}
	fmt.Fprintf(os.Stderr, "bench: %s is not materialised in %s; running hack/corpus (once)\n", e.Name, cache)
	cmd := exec.Command("go", "run", "./hack/corpus", "run", "-only", e.Name, "-cache", cache, "-ctrllint", ctrllint)
	cmd.Dir = repoRoot()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Run() // exit 1 means the triage differs: not our concern
	if !e.materialised(cache) {
		return fmt.Errorf("%s: hack/corpus did not materialise it:\n%s", e.Name, tail(out.String(), 2000))
	}
	return nil
}

// repoRoot is the repository's root directory, from the root or from
// hack/bench.
func repoRoot() string {
	if exists(filepath.Join("hack", "bench")) {
		return "."
	}
	return filepath.Join("..", "..")
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
