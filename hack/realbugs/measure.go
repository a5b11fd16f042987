package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ctrllint/ctrllint/hack/internal/bugs"
	"github.com/ctrllint/ctrllint/hack/internal/pinned"
)

// An outcome is what ctrllint reported in one bug's function at its two
// versions.
type outcome struct {
	bug     bugs.Bug
	buggy   []pinned.Finding // the bug's analyzer, inside the function, at the buggy version
	fixed   []pinned.Finding // the same at the fixed version
	failure string           // the versions could not be analysed
}

func (o outcome) detected() bool { return len(o.buggy) > 0 }

// ok says whether the outcome is what realbugs.json records: the recorded
// detection, and nothing at the fixed version.
func (o outcome) ok() bool {
	return o.failure == "" && o.detected() == o.bug.Detected && len(o.fixed) == 0
}

// A version is one module version and the benchmark's packages in it: each
// is materialised and analysed once, however many bugs it holds.
type version struct {
	module, version string
	entry           pinned.Entry
	result          pinned.Result
	dir             string // the module's directory in the module cache
	failure         string
}

func measure(bin, cache string, selected []bugs.Bug) []outcome {
	versions := map[string]*version{}
	var order []string
	add := func(b bugs.Bug, v string) {
		key := b.Module + "@" + v
		x := versions[key]
		if x == nil {
			x = &version{module: b.Module, version: v, entry: pinned.Entry{
				Name:    strings.NewReplacer("/", "_", "~", "_").Replace(b.Module),
				Module:  b.Module,
				Version: v,
				Staging: b.StagingAt(v),
				Replace: map[string]string{},
			}}
			versions[key] = x
			order = append(order, key)
		}
		union(&x.entry.Patterns, b.PackageAt(v))
		union(&x.entry.Exclude, b.Exclude...)
		union(&x.entry.Stubs, b.Stubs...)
		maps.Copy(x.entry.Replace, b.Replace)
	}
	for _, b := range selected {
		add(b, b.Buggy)
		add(b, b.Fixed)
	}
	sort.Strings(order)
	// ctrllint's cache directory of the run's own: each version is
	// analysed once, and the export data of the dependencies it
	// type-checks from source (versions this machine never built) is
	// shared by the run's versions, not kept for months of them.
	env := os.Environ()
	if own, err := os.MkdirTemp("", "ctrllint-realbugs-cache-"); err == nil {
		defer os.RemoveAll(own)
		env = append(env, "CTRLLINT_CACHE="+own)
	}
	for i, key := range order {
		x := versions[key]
		sort.Strings(x.entry.Patterns)
		start := time.Now()
		analyseVersion(bin, cache, env, x)
		fmt.Fprintf(os.Stderr, "realbugs: [%d/%d] %s: %d packages, %.0fs\n", i+1, len(order), key, len(x.entry.Patterns), time.Since(start).Seconds())
	}
	out := make([]outcome, 0, len(selected))
	for _, b := range selected {
		out = append(out, judge(b, versions[b.Module+"@"+b.Buggy], versions[b.Module+"@"+b.Fixed]))
	}
	return out
}

func analyseVersion(bin, cache string, env []string, x *version) {
	dir, err := pinned.Materialise(cache, x.entry)
	if err != nil {
		x.failure = err.Error()
		return
	}
	x.result = pinned.AnalyseWith(bin, dir, x.entry, env)
	if x.result.Failure != "" {
		x.failure = x.result.Failure + "\n" + tail(x.result.Stderr, 2000)
		return
	}
	out, err := pinned.GoCmd(dir, "mod", "download", "-json", x.module+"@"+x.version)
	if err != nil {
		x.failure = err.Error()
		return
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		x.failure = fmt.Sprintf("go mod download -json %s@%s: no directory (%v)", x.module, x.version, err)
		return
	}
	x.dir = info.Dir
}

// judge looks for the bug's analyzer's findings inside its function at both
// versions.
func judge(b bugs.Bug, buggy, fixed *version) outcome {
	o := outcome{bug: b}
	var err error
	if o.buggy, err = inside(b, buggy, b.File, b.Function, ""); err != nil {
		o.failure = err.Error()
		return o
	}
	file, function := b.FixedAt()
	if o.fixed, err = inside(b, fixed, file, function, ""); err != nil {
		o.failure = err.Error()
		return o
	}
	for _, p := range b.Also {
		for _, at := range []struct {
			v     *version
			found *[]pinned.Finding
		}{{buggy, &o.buggy}, {fixed, &o.fixed}} {
			fs, err := inside(b, at.v, p.File, p.Function, b.ShortName())
			if err != nil {
				o.failure = err.Error()
				return o
			}
			*at.found = append(*at.found, fs...)
		}
	}
	return o
}

// inside returns the bug's analyzer's findings inside function in file at
// version v; with mention set, only those whose message names it.
func inside(b bugs.Bug, v *version, file, function, mention string) ([]pinned.Finding, error) {
	if v.failure != "" {
		return nil, fmt.Errorf("%s@%s: %s", v.module, v.version, v.failure)
	}
	s, err := funcSpan(filepath.Join(v.dir, filepath.FromSlash(file)), function)
	if err != nil {
		return nil, fmt.Errorf("%s@%s: %v", v.module, v.version, err)
	}
	placed := v.module + "@" + v.version + "/" + file
	var found []pinned.Finding
	for _, f := range v.result.Findings {
		if f.Analyzer == b.Analyzer && f.File == placed && s.has(f.Line) && strings.Contains(f.Message, mention) {
			found = append(found, f)
		}
	}
	return found, nil
}

// union adds to *dst the xs it lacks.
func union(dst *[]string, xs ...string) {
	for _, x := range xs {
		if !slices.Contains(*dst, x) {
			*dst = append(*dst, x)
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
