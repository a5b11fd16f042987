// Package bugs reads the real-bug benchmark (hack/realbugs/realbugs.json):
// historical bugs of ctrllint's classes that were fixed upstream, each a
// module served by the module proxy at the last version with the bug and the
// first with its fix. hack/realbugs runs it; hack/corpus renders its recall
// beside the corpus's precision.
package bugs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
)

// A Bug is one fixed upstream bug and where it was.
type Bug struct {
	Name     string `json:"name"`
	Analyzer string `json:"analyzer"` // the analyzer whose class the bug is
	Module   string `json:"module"`
	Buggy    string `json:"buggy"` // the last release with the bug
	Fixed    string `json:"fixed"` // the first release with the fix
	Package  string `json:"package"`
	File     string `json:"file"`     // in the module, at the buggy version
	Function string `json:"function"` // f, T.m or (*T).m, in File
	// FixedPackage, FixedFile and FixedFunction name the function at the
	// fixed version when the fix moved or renamed it.
	FixedPackage  string `json:"fixed_package,omitempty"`
	FixedFile     string `json:"fixed_file,omitempty"`
	FixedFunction string `json:"fixed_function,omitempty"`
	// Also are the callers where the analyzer reports the bug when it is
	// in a function that writes or reads for them (cachemutation reports
	// the cache read in ProcessItem that hands the object to Sync, which
	// writes it): a finding there counts when its message names the
	// function (Function's last name). They are looked at in both versions.
	Also     []Place `json:"also,omitempty"`
	Evidence string  `json:"evidence"` // the fix upstream: its PR, commit or issue, and what it changed
	Shape    string  `json:"shape"`    // the bug's code shape, in words
	Verified string  `json:"verified"` // what was checked of the diff between the two versions
	// Staging is the version of the published k8s.io/* modules that stand
	// in for k8s.io/kubernetes's ./staging replaces at the buggy and the
	// fixed version; derived (v1.X.Y → v0.X.Y) when empty.
	Staging map[string]string `json:"staging,omitempty"`
	Replace map[string]string `json:"replace,omitempty"` // as hack/corpus's entries
	Exclude []string          `json:"exclude,omitempty"`
	Stubs   []string          `json:"stubs,omitempty"`
	// Detected records the outcome at the buggy version the last time the
	// benchmark was run; a run fails when it changes, so that a change in
	// recall is always seen and recorded here.
	Detected bool   `json:"detected"`
	Missed   string `json:"missed,omitempty"` // why it is not detected: the shape ctrllint does not follow
	// CI puts the bug in the subset `make test` runs.
	CI bool `json:"ci,omitempty"`
}

// A Place is a function in a file of the module.
type Place struct {
	File     string `json:"file"`
	Function string `json:"function"`
}

// ShortName is the function's own name: Sync for (*Controller).Sync.
func (b Bug) ShortName() string {
	if i := strings.LastIndex(b.Function, "."); i >= 0 {
		return b.Function[i+1:]
	}
	return b.Function
}

// PackageAt is the package to analyse at version v.
func (b Bug) PackageAt(v string) string {
	if v == b.Fixed && b.FixedPackage != "" {
		return b.FixedPackage
	}
	return b.Package
}

// FixedAt returns the file and function to look in at the fixed version.
func (b Bug) FixedAt() (file, function string) {
	file, function = b.File, b.Function
	if b.FixedFile != "" {
		file = b.FixedFile
	}
	if b.FixedFunction != "" {
		function = b.FixedFunction
	}
	return file, function
}

// StagingAt is the k8s.io/* staging version for the module at version v:
// for k8s.io/kubernetes v1.X.Y it is v0.X.Y unless the entry says otherwise.
func (b Bug) StagingAt(v string) string {
	if s := b.Staging[v]; s != "" {
		return s
	}
	if b.Module == "k8s.io/kubernetes" && strings.HasPrefix(v, "v1.") {
		return "v0." + strings.TrimPrefix(v, "v1.")
	}
	return ""
}

var (
	nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*$`)
	// A $N suffix names the Nth func literal of the function, in source
	// order, as go/ssa does (NewCIDRRangeAllocator$3: its DeleteFunc).
	functionRE = regexp.MustCompile(`^(\(\*?[A-Za-z_]\w*\)\.|[A-Za-z_]\w*\.)?[A-Za-z_]\w*(\$[1-9][0-9]*)?$`)
	versionRE  = regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)
)

// Load reads and checks the benchmark file.
func Load(file string) ([]Bug, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Comment string `json:"comment"`
		Bugs    []Bug  `json:"bugs"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	seen := map[string]bool{}
	for i, b := range doc.Bugs {
		at := fmt.Sprintf("%s: bug %d (%s)", file, i+1, b.Name)
		switch {
		case !nameRE.MatchString(b.Name):
			return nil, fmt.Errorf("%s: a name is lower-case letters, digits, dots and dashes", at)
		case seen[b.Name]:
			return nil, fmt.Errorf("%s: name used twice", at)
		case b.Analyzer == "" || b.Module == "" || b.Package == "" || b.File == "":
			return nil, fmt.Errorf("%s: analyzer, module, package and file are required", at)
		case !versionRE.MatchString(b.Buggy) || !versionRE.MatchString(b.Fixed) || b.Buggy == b.Fixed:
			return nil, fmt.Errorf("%s: buggy and fixed are two release versions", at)
		case !functionRE.MatchString(b.Function) || (b.FixedFunction != "" && !functionRE.MatchString(b.FixedFunction)):
			return nil, fmt.Errorf("%s: function %q is not f, T.m or (*T).m, with an optional $N", at, b.Function)
		case !placesOK(b.Also):
			return nil, fmt.Errorf("%s: every also place has a file and a function f, T.m or (*T).m", at)
		case b.Evidence == "":
			return nil, fmt.Errorf("%s: evidence of the upstream fix is required", at)
		case !b.Detected && b.Missed == "":
			return nil, fmt.Errorf("%s: a missed bug says why (missed)", at)
		case b.Detected && b.Missed != "":
			return nil, fmt.Errorf("%s: a detected bug has no missed reason", at)
		case !strings.HasPrefix(b.Package, b.Module) || !strings.HasPrefix(b.PackageAt(b.Fixed), b.Module):
			return nil, fmt.Errorf("%s: package %s is not in module %s", at, b.PackageAt(b.Fixed), b.Module)
		}
		seen[b.Name] = true
	}
	return doc.Bugs, nil
}

func placesOK(ps []Place) bool {
	for _, p := range ps {
		if p.File == "" || !functionRE.MatchString(p.Function) {
			return false
		}
	}
	return true
}

// A Recall is one analyzer's share of benchmark bugs detected.
type Recall struct {
	Analyzer        string
	Detected, Total int
}

func (r Recall) String() string {
	if r.Total == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", r.Detected, r.Total, 100*float64(r.Detected)/float64(r.Total))
}

// Recalls tallies recorded (or, after a run, observed) outcomes per
// analyzer, in order of name, with the total last.
func Recalls(bugs []Bug) []Recall {
	m := map[string]*Recall{}
	all := Recall{Analyzer: "all"}
	for _, b := range bugs {
		r := m[b.Analyzer]
		if r == nil {
			r = &Recall{Analyzer: b.Analyzer}
			m[b.Analyzer] = r
		}
		r.Total++
		all.Total++
		if b.Detected {
			r.Detected++
			all.Detected++
		}
	}
	out := make([]Recall, 0, len(m)+1)
	for _, r := range m {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Analyzer < out[j].Analyzer })
	return append(out, all)
}
