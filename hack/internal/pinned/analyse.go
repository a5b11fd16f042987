package pinned

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/mod/module"
)

// A Finding is one ctrllint report, placed by module path, version and
// file (not by the cache directory it was read from), so that reports from
// different machines compare.
type Finding struct {
	Entry    string `json:"entry"`
	Analyzer string `json:"analyzer"`
	File     string `json:"file"` // module@version/path
	Line     int    `json:"line"`
	Message  string `json:"message"`
}

// Key identifies the finding in a triage.
func (f Finding) Key() string {
	return fmt.Sprintf("%s|%s|%s:%d|%s", f.Entry, f.Analyzer, f.File, f.Line, f.Message)
}

// A Result is what one ctrllint run on one entry gave.
type Result struct {
	Entry    string    `json:"entry"`
	Version  string    `json:"version"`
	Packages int       `json:"packages"`
	Findings []Finding `json:"findings"`
	Exit     int       `json:"exit"`
	Stderr   string    `json:"stderr,omitempty"`
	Seconds  float64   `json:"seconds"`
	PeakMB   int64     `json:"peakMB"`
	Failure  string    `json:"failure,omitempty"` // why this run counts as a crash
}

// Analyse runs `ctrllint -f json` in dir over the entry's packages with the
// default flags, tests included: what a user's first run reports.
func Analyse(bin, dir string, e Entry) Result { return AnalyseWith(bin, dir, e, nil) }

// AnalyseWith is Analyse with ctrllint's environment env (nil: this
// process's).
func AnalyseWith(bin, dir string, e Entry, env []string) Result {
	r := Result{Entry: e.Name, Version: e.Version}
	targets := e.Patterns
	if data, err := os.ReadFile(filepath.Join(dir, PackagesFile)); err == nil {
		targets = strings.Fields(string(data)) // the patterns, less excluded packages
		r.Packages = len(targets)
	} else if out, err := GoCmd(dir, append([]string{"list", "-e", "-f", "{{.ImportPath}}"}, e.Patterns...)...); err == nil {
		r.Packages = len(strings.Fields(string(out)))
	}
	// The default flags, tests included: what a user's first run reports.
	cmd := exec.Command(bin, append([]string{"-f", "json"}, targets...)...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r.Seconds = time.Since(start).Seconds()
	if cmd.ProcessState != nil {
		r.Exit = cmd.ProcessState.ExitCode()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.PeakMB = ru.Maxrss / 1024
		}
	}
	r.Stderr = stderr.String()
	switch {
	case err != nil && r.Exit != 1:
		r.Failure = fmt.Sprintf("ctrllint exited %d: %v", r.Exit, err)
	case strings.Contains(r.Stderr, "panic") || strings.Contains(r.Stderr, "internal error"):
		r.Failure = "ctrllint reported an internal error"
	}
	var raw []struct {
		Analyzer string `json:"analyzer"`
		Message  string `json:"message"`
		File     string `json:"file"`
		Line     int    `json:"line"`
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &raw); jerr != nil && r.Failure == "" {
		r.Failure = fmt.Sprintf("ctrllint's JSON output: %v", jerr)
	}
	places, err := GoCmd(dir, "env", "GOMODCACHE", "GOROOT")
	if err != nil {
		r.Failure = err.Error()
		return r
	}
	modcache, goroot, _ := strings.Cut(strings.TrimSpace(string(places)), "\n")
	for _, x := range raw {
		if x.Analyzer == "ctrllint" {
			continue // a load or analyzer error, not a finding: the exit status (2) has made it a failure
		}
		r.Findings = append(r.Findings, Finding{
			Entry:    e.Name,
			Analyzer: x.Analyzer,
			File:     PlaceFile(x.File, dir, modcache, goroot),
			Line:     x.Line,
			Message:  x.Message,
		})
	}
	return r
}

// PlaceFile names a file by module@version/path when it is in the module
// cache, by the standard library's path when in GOROOT.
func PlaceFile(file, dir, modcache, goroot string) string {
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	if rel, err := filepath.Rel(modcache, file); err == nil && !strings.HasPrefix(rel, "..") {
		rel = filepath.ToSlash(rel)
		if at := strings.Index(rel, "@"); at > 0 {
			if p, err := module.UnescapePath(rel[:at]); err == nil {
				return p + rel[at:]
			}
		}
		return rel
	}
	if rel, err := filepath.Rel(filepath.Join(goroot, "src"), file); err == nil && !strings.HasPrefix(rel, "..") {
		return "std/" + filepath.ToSlash(rel)
	}
	return file
}
