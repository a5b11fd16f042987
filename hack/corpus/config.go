package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/ctrllint/ctrllint/hack/internal/pinned"
	"os"
)

// An entry is one pinned module and the packages of it that are analysed.
type entry = pinned.Entry

type config struct {
	Entries []entry `json:"entries"`
}

func (c *config) entry(name string) (entry, bool) {
	for _, e := range c.Entries {
		if e.Name == name {
			return e, true
		}
	}
	return entry{}, false
}

func loadConfig(file string) (*config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var c config
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&struct {
		Comment string   `json:"comment"`
		Entries *[]entry `json:"entries"`
	}{Entries: &c.Entries}); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	seen := map[string]bool{}
	for _, e := range c.Entries {
		switch {
		case e.Name == "" || len(e.Patterns) == 0:
			return nil, fmt.Errorf("%s: every entry needs a name and patterns", file)
		case seen[e.Name]:
			return nil, fmt.Errorf("%s: entry %q twice", file, e.Name)
		case (e.Module == "") != (e.Version == ""):
			return nil, fmt.Errorf("%s: entry %q: module and version go together", file, e.Name)
		}
		seen[e.Name] = true
	}
	return &c, nil
}

// A finding is a ctrllint report placed by module path, version and file;
// a result is one ctrllint run on one entry.
type (
	finding = pinned.Finding
	result  = pinned.Result
)
