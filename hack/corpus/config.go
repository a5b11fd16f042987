package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// An entry is one pinned module and the packages of it that are analysed.
type entry struct {
	Name     string   `json:"name"`
	Module   string   `json:"module"`   // empty for the standard library
	Version  string   `json:"version"`  // a release on the module proxy
	Staging  string   `json:"staging"`  // version of the published k8s.io/* modules that replace ./staging
	Patterns []string `json:"patterns"` // go list patterns
	// Replace maps a module path to a version, for local replaces of the
	// pinned go.mod other than staging that the required version cannot stand
	// in for.
	Replace map[string]string `json:"replace"`
	// Exclude lists import path prefixes the module proxy cannot serve:
	// packages that import them, directly or through other packages of
	// the entry, are left out.
	Exclude []string `json:"exclude"`
	Note    string   `json:"note"`
}

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
