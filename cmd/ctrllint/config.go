package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
	"github.com/ctrllint/ctrllint/internal/config"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// configNone is the -config value that turns discovery off.
const configNone = "none"

// severities is the severity of each analyzer's findings, "error",
// "warning" or "note": the configuration file's severity for it, else its
// severity.default, else "warning" (defaultSeverity).
func severities(f *config.File) func(analyzer string) string {
	if f == nil {
		return defaultSeverity
	}
	return f.Settings.SeverityOf
}

// configure reads the configuration file (config.File, nil for none) and
// returns it with the analyzers to run (selectConfigured).
func configure(o *options, all []*analysis.Analyzer) (*config.File, []*analysis.Analyzer, error) {
	wd, err := workDir(o.dir)
	if err != nil {
		return nil, nil, err
	}
	return selectConfigured(o, wd, all)
}

// printConfigError prints each of the problems err may join on a line of
// its own.
func printConfigError(stderr io.Writer, err error) {
	for line := range strings.SplitSeq(err.Error(), "\n") {
		fmt.Fprintf(stderr, "ctrllint: %s\n", line)
	}
}

// listConfig says on stderr which configuration file -list's selection
// comes from, so that stdout stays the list.
func listConfig(stderr io.Writer, f *config.File, o *options) {
	wd, err := workDir(o.dir)
	switch {
	case f == nil && o.config == configNone:
		fmt.Fprintln(stderr, "ctrllint: no configuration file (-config=none)")
	case f == nil:
		fmt.Fprintf(stderr, "ctrllint: no configuration file (%s) in the working directory or above it\n", strings.Join(config.FileNames, ", "))
	case err == nil:
		fmt.Fprintf(stderr, "ctrllint: configuration file %s\n", relativizer(wd)(f.Path))
	}
}

// configFile finds and reads the run's configuration file: -config FILE
// (relative to the working directory, which -C sets), none for
// -config=none, else the first .ctrllint.yml or .ctrllint.yaml in wd or a
// directory above it. It returns nil for none.
func configFile(o *options, wd string, all []*analysis.Analyzer) (*config.File, error) {
	var path string
	switch o.config {
	case configNone:
		return nil, nil
	case "":
		p, err := config.Find(wd)
		if err != nil || p == "" {
			return nil, err
		}
		path = p
	default:
		path = o.config
		if !filepath.IsAbs(path) {
			path = filepath.Join(wd, path)
		}
	}
	f, err := config.Load(path, relativizer(wd)(path), all)
	if err != nil && o.config != "" {
		return nil, fmt.Errorf("-config: %w", err)
	}
	return f, err
}

// selectConfigured reads the configuration file and returns it (nil for
// none) and the analyzers to run. The command line wins over the file:
//
//   - -enable replaces the file's enable and disable: the analyzers it
//     names run, less those -disable names;
//   - -disable adds to the file's disable, and removes what it names from
//     the file's enable;
//   - -NAME.OPTION replaces the file's NAME: {OPTION: ...}; the file's
//     other options still apply.
func selectConfigured(o *options, wd string, all []*analysis.Analyzer) (*config.File, []*analysis.Analyzer, error) {
	f, err := configFile(o, wd, all)
	if err != nil {
		return nil, nil, err
	}
	if err := configureOptions(o, f, all); err != nil {
		return nil, nil, err
	}
	enabled, err := selection(o, f, wd, all)
	if err != nil {
		return nil, nil, err
	}
	return f, enabled, nil
}

// configureOptions sets the analyzers' options the file f gives (nil: none)
// and the command line does not.
func configureOptions(o *options, f *config.File, all []*analysis.Analyzer) error {
	if f == nil {
		return nil
	}
	for _, a := range all {
		skip := func(name string) bool { return o.set[a.Name+"."+name] }
		if err := config.Configure(a, f.Options[a.Name], skip); err != nil {
			return err
		}
	}
	return nil
}

// selection is the analyzers to run by the file f (nil: none) and the
// command line, by the rules selectConfigured gives.
func selection(o *options, f *config.File, wd string, all []*analysis.Analyzer) ([]*analysis.Analyzer, error) {
	cmdEnable, cmdDisable := splitNames(o.enable), splitNames(o.disable)
	if f == nil {
		return analyzers.SelectFrom(all, cmdEnable, cmdDisable)
	}
	if len(cmdEnable) > 0 {
		return analyzers.SelectFrom(all, cmdEnable, cmdDisable)
	}
	// Unknown names on the command line are SelectFrom's to report.
	enable := slices.DeleteFunc(slices.Clone(f.Enable), func(n string) bool { return slices.Contains(cmdDisable, n) })
	if len(f.Enable) > 0 && len(enable) == 0 {
		return nil, fmt.Errorf("-disable %s and %s's enable leave no analyzer to run", o.disable, relativizer(wd)(f.Path))
	}
	return analyzers.SelectFrom(all, enable, append(slices.Clone(f.Disable), cmdDisable...))
}

// excludeConfigured drops the findings in files the configuration's
// exclude-paths match, relative to the file's directory as golangci-lint's
// linters.exclusions.paths are to its configuration's.
func excludeConfigured(f *config.File, findings []finding.Finding) []finding.Finding {
	if f == nil || len(f.ExcludePaths) == 0 {
		return findings
	}
	var kept []finding.Finding
	for _, fd := range findings {
		rel, err := filepath.Rel(f.Dir, fd.Pos.File)
		if err != nil {
			rel = fd.Pos.File
		}
		if !f.Excluded(filepath.ToSlash(rel)) {
			kept = append(kept, fd)
		}
	}
	return kept
}
