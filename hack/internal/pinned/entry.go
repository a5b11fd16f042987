package pinned

// An Entry is one pinned module and the packages of it that are analysed.
type Entry struct {
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
	// Stubs lists modules the pinned go.mod requires that the module proxy
	// no longer serves (vbom.ml/util in kubernetes v1.16) and that no
	// analysed package imports: each is replaced by an empty local module,
	// so that the module graph loads.
	Stubs []string `json:"stubs,omitempty"`
	Note  string   `json:"note"`
}
