package config

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	yamlnode "go.yaml.in/yaml/v3"

	"github.com/ctrllint/ctrllint/analyzers"
)

// FuzzLoad: any file is accepted or refused with an error, never a panic,
// and an accepted one selects analyzers and is one YAML document at most,
// as another YAML library reads it: a second one is never ignored.
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{
		"", "enable: [tombstone]\n", "- x\n", "3\n", "'s'\n", "enable: [a\n", "a: 1\na: 2\n",
		"severity: {default: note, tombstone: [x]}\n", "exclude-paths: ['(', 1, null]\n",
		"listerbypass: {all: yes, ALL: no}\n", "&a [*a]\n", "? [x]\n: 1\n",
		// Document markers: one document, comments only, two documents.
		"---\nenable: [tombstone]\n...\n", "# c\n--- # c\nenable: [tombstone]\n... # c\n# c\n",
		"--- {enable: [tombstone]}\n", "# c\n...\n", "---\n...\n", "\ufeff---\r\nenable: [tombstone]\r\n",
		"enable: [tombstone]\n---\ndisable: [forget]\n", "---\n---\nenable: [tombstone]\n",
		"enable: [tombstone]\n---\n# c\n", "enable: [tombstone]\n...\ndisable: [forget]\n",
		"enable: [tombstone]\n---\ndisable: [x\n", "exclude-paths:\n  - |\n    ---x\n---\n",
		"%YAML 1.1\n---\nenable: [tombstone]\n", "exclude-paths: ['\n---\n']\n", "&000 &0",
	} {
		f.Add(seed)
	}
	path := filepath.Join(f.TempDir(), ".ctrllint.yml")
	f.Fuzz(func(t *testing.T, src string) {
		if err := os.WriteFile(path, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
		all := analyzers.New()
		file, err := Load(path, ".ctrllint.yml", all)
		if err != nil {
			return
		}
		if _, err := file.Analyzers(all); err != nil {
			t.Fatalf("accepted %q fails to configure: %v", src, err)
		}
		dec := yamlnode.NewDecoder(bytes.NewReader([]byte(src)))
		var doc yamlnode.Node
		if dec.Decode(&doc) != nil {
			return // not even one document to this library
		}
		// An error here is the libraries' disagreement on what follows
		// (accepted "&0 &0" is null to one, a node and junk to the other).
		if err := dec.Decode(&doc); err == nil {
			t.Fatalf("accepted %q, in which go.yaml.in/yaml/v3 finds a second document at line %d", src, doc.Line)
		}
	})
}
