package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers"
)

// FuzzLoad: any file is accepted or refused with an error, never a panic,
// and an accepted one selects analyzers.
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{
		"", "enable: [tombstone]\n", "- x\n", "3\n", "'s'\n", "enable: [a\n", "a: 1\na: 2\n",
		"severity: {default: note, tombstone: [x]}\n", "exclude-paths: ['(', 1, null]\n",
		"listerbypass: {all: yes, ALL: no}\n", "&a [*a]\n", "? [x]\n: 1\n",
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
	})
}
