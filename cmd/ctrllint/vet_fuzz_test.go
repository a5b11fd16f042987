package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzVetConfig: any bytes as go vet's unit config give an error or a
// config naming its package and Go files, which encodes and reads back as
// itself; never a panic.
func FuzzVetConfig(f *testing.F) {
	for _, seed := range []string{
		`{"ID":"example.com/m","Compiler":"gc","Dir":"/m","ImportPath":"example.com/m","GoFiles":["/m/a.go"],"NonGoFiles":[],"ImportMap":{"fmt":"fmt"},"PackageFile":{"fmt":"/c/fmt.a"},"Standard":{"fmt":true},"PackageVetx":{"fmt":"/c/fmt.vetx"},"VetxOnly":false,"VetxOutput":"/w/vet.out","GoVersion":"go1.26","SucceedOnTypecheckFailure":false}`,
		`null`, `[]`, `{}`, `{"ImportPath":"p","GoFiles":["/a.go"]} {}`, `{"ImportPath":"p","GoFiles":[""]}`,
		`{"ImportPath":"p","GoFiles":["/a.go"],"Module":{"Path":"m","Version":"v1.0.0"}}`, `{"ImportPath":"\xff","GoFiles":["\u0000"]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := parseVetConfig(data)
		if err != nil {
			if cfg != nil {
				t.Fatalf("a config and an error: %v", err)
			}
			return
		}
		if cfg.ImportPath == "" || len(cfg.GoFiles) == 0 || slices.Contains(cfg.GoFiles, "") {
			t.Fatalf("accepted %+v", cfg)
		}
		again, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg2, err := parseVetConfig(again)
		if err != nil || !reflect.DeepEqual(cfg, cfg2) {
			t.Fatalf("read back %s as %+v (%v), want %+v", again, cfg2, err, cfg)
		}
	})
}

// A unit config that is not what the go command writes: a clear error
// naming it, exit 2, no stack.
func TestVetMalformedConfig(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ data, want string }{
		{"", "not a JSON object"},
		{"null", "not a JSON object"},
		{`{"ImportPath":"p","GoFiles":"a.go"}`, "not a unit config: json: cannot unmarshal"},
		{`{"ImportPath":"p","GoFiles":["/a.go"]} {}`, "more than one JSON value"},
		{`{"GoFiles":["/a.go"]}`, "no ImportPath"},
		{`{"ImportPath":"p"}`, "package p has no GoFiles"},
		{`{"ImportPath":"p","GoFiles":["/a.go",""]}`, "package p has a file without a name"},
	} {
		name := filepath.Join(dir, "unit.cfg")
		if err := os.WriteFile(name, []byte(tc.data), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runBinary(t, ctrllintBin, dir, nil, name)
		want := "ctrllint: go vet's unit config " + name + ": " + tc.want
		if r.code != exitError || !strings.HasPrefix(r.stderr, want) || strings.Contains(r.stderr, "goroutine ") {
			t.Errorf("%q: exit %d, stderr %q; want exit %d, stderr starting %q", tc.data, r.code, r.stderr, exitError, want)
		}
	}
}
