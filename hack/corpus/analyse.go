package main

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

// A finding is one ctrllint report, placed by module path, version and
// file (not by the cache directory it was read from), so that reports from
// different machines compare.
type finding struct {
	Entry    string `json:"entry"`
	Analyzer string `json:"analyzer"`
	File     string `json:"file"` // module@version/path
	Line     int    `json:"line"`
	Message  string `json:"message"`
}

func (f finding) key() string {
	return fmt.Sprintf("%s|%s|%s:%d|%s", f.Entry, f.Analyzer, f.File, f.Line, f.Message)
}

// A result is what one ctrllint run on one entry gave.
type result struct {
	Entry    string    `json:"entry"`
	Version  string    `json:"version"`
	Packages int       `json:"packages"`
	Findings []finding `json:"findings"`
	Exit     int       `json:"exit"`
	Stderr   string    `json:"stderr,omitempty"`
	Seconds  float64   `json:"seconds"`
	PeakMB   int64     `json:"peakMB"`
	Failure  string    `json:"failure,omitempty"` // why this run counts as a crash
}

func analyse(bin, dir string, e entry) result {
	r := result{Entry: e.Name, Version: e.Version}
	targets := e.Patterns
	if data, err := os.ReadFile(filepath.Join(dir, packagesFile)); err == nil {
		targets = strings.Fields(string(data)) // the patterns, less excluded packages
		r.Packages = len(targets)
	} else if out, err := goCmd(dir, append([]string{"list", "-e", "-f", "{{.ImportPath}}"}, e.Patterns...)...); err == nil {
		r.Packages = len(strings.Fields(string(out)))
	}
	// The default flags, tests included: what a user's first run reports.
	cmd := exec.Command(bin, append([]string{"-f", "json"}, targets...)...)
	cmd.Dir = dir
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
	modcache := strings.TrimSpace(string(must(goCmd(dir, "env", "GOMODCACHE"))))
	goroot := strings.TrimSpace(string(must(goCmd(dir, "env", "GOROOT"))))
	for _, x := range raw {
		if x.Analyzer == "ctrllint" {
			continue // a load or analyzer error, not a finding: the exit status (2) has made it a failure
		}
		r.Findings = append(r.Findings, finding{
			Entry:    e.Name,
			Analyzer: x.Analyzer,
			File:     placeFile(x.File, dir, modcache, goroot),
			Line:     x.Line,
			Message:  x.Message,
		})
	}
	return r
}

// placeFile names a file by module@version/path when it is in the module
// cache, by the standard library's path when in GOROOT.
func placeFile(file, dir, modcache, goroot string) string {
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

func must(b []byte, err error) []byte {
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(1)
	}
	return b
}
