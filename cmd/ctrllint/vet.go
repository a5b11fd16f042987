package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/ctrllint/ctrllint/analyzers"
)

// isVetInvocation reports whether the go command is running us as
// go vet -vettool. The protocol has three calls: -V=full (a version line
// that keys go's build cache), -flags (the flags it may forward, as JSON)
// and one call per package with a single *.cfg argument describing it.
// It must be detected before our own flags are parsed, since the go
// command's flags are unitchecker's, not ours.
func isVetInvocation(args []string) bool {
	for _, a := range args {
		switch a {
		case "-V=full", "--V=full", "-flags", "--flags":
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// runVet hands over to unitchecker, which registers -NAME and -NAME=false
// per analyzer. -enable and -disable are added as aliases for those so
// that they keep their meaning under go vet (go vet forwards them because
// -flags lists them), checked by the rule every front end shares.
func runVet(args []string, all []*analysis.Analyzer) {
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		cfg, err := readVetConfig(args[len(args)-1])
		if err != nil {
			fmt.Fprintf(os.Stderr, "ctrllint: %v\n", err)
			os.Exit(exitError)
		}
		if cfg.VetxOnly && !vetUnitLocal(cfg) {
			// go vet asks for every dependency's types and facts. The
			// analyzers summarise only packages of the modules being
			// analysed (summary.Local), so here the types are all there is
			// to give: with no fact types, unitchecker runs no analyzer
			// on the unit, and nothing they require.
			all = withoutFacts(all)
		}
	}
	nameFindings(all)
	sel := &vetSelection{all: all}
	flag.Var(&vetSelect{sel: sel, enable: true}, "enable", "comma-separated analyzers to run (default all)")
	flag.Var(&vetSelect{sel: sel, enable: false}, "disable", "comma-separated analyzers not to run")
	unitchecker.Main(all...)
}

// vetSelection is what -enable and -disable have named so far.
type vetSelection struct {
	all               []*analysis.Analyzer
	enabled, disabled []string
}

// vetSelect translates -enable or -disable into unitchecker's per-analyzer
// flags, which exist by the time flag.Parse calls Set. Each Set checks the
// selection so far by analyzers.Select's rule: once a selection is
// refused, later flags can make it no more acceptable.
type vetSelect struct {
	sel    *vetSelection
	enable bool
	names  string
}

func (v *vetSelect) String() string { return v.names }

func (v *vetSelect) Set(s string) error {
	names := splitNames(s)
	en, dis := v.sel.enabled, v.sel.disabled
	if v.enable {
		en = append(slices.Clone(en), names...)
	} else {
		dis = append(slices.Clone(dis), names...)
	}
	if _, err := analyzers.SelectFrom(v.sel.all, en, dis); err != nil {
		return err
	}
	v.sel.enabled, v.sel.disabled = en, dis
	for _, n := range names {
		if err := flag.Set(n, strconv.FormatBool(v.enable)); err != nil {
			return fmt.Errorf("%s: %v", n, err)
		}
	}
	v.names = s
	return nil
}

// readVetConfig reads the unit config go vet passes and checks it for
// what the go command always writes, before unitchecker, which reads it
// again, takes it as it is: a lone JSON object naming the package and its
// Go files. What is not that gets an error naming the file.
func readVetConfig(name string) (*unitchecker.Config, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("go vet's unit config: %v", err)
	}
	cfg, err := parseVetConfig(data)
	if err != nil {
		return nil, fmt.Errorf("go vet's unit config %s: %v", name, err)
	}
	return cfg, nil
}

func parseVetConfig(data []byte) (*unitchecker.Config, error) {
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	cfg := new(unitchecker.Config)
	if err := dec.Decode(cfg); err != nil {
		return nil, fmt.Errorf("not a unit config: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	if cfg.ImportPath == "" {
		return nil, errors.New("no ImportPath")
	}
	if len(cfg.GoFiles) == 0 {
		return nil, fmt.Errorf("package %s has no GoFiles", cfg.ImportPath)
	}
	for _, files := range [][]string{cfg.GoFiles, cfg.NonGoFiles, cfg.IgnoredFiles} {
		if slices.Contains(files, "") {
			return nil, fmt.Errorf("package %s has a file without a name", cfg.ImportPath)
		}
	}
	return cfg, nil
}

// vetUnitLocal reports whether the unit go vet describes belongs to a
// module being analysed (a main or workspace module, at no version): the
// rule of analyzers/internal/summary.Local, on go vet's description of
// the module (Module from go1.27, ModulePath and ModuleVersion before).
func vetUnitLocal(cfg *unitchecker.Config) bool {
	path, version := cfg.ModulePath, cfg.ModuleVersion
	if cfg.Module != nil {
		path, version = cfg.Module.Path, cfg.Module.Version
	}
	return path != "" && version == ""
}

// nameFindings makes the messages of analyzers end with the analyzer's
// name, as the command's text format ends its lines, "(tombstone)": go
// vet prints the message alone, which leaves a reader of a long vet log
// to guess which analyzer to look up or to disable. The -json output
// carries the name too: from Go 1.26 go vet asks the tool for JSON and
// prints the text lines itself, asking as go vet -json does, so the tool
// cannot tell the two apart.
//
// It changes the analyzers themselves: a copy would be another analyzer
// to those that require it (pass.ResultOf is keyed by analyzer), and in
// go vet mode the process runs nothing else.
func nameFindings(analyzers []*analysis.Analyzer) {
	for _, a := range analyzers {
		run, suffix := a.Run, " ("+a.Name+")"
		a.Run = func(pass *analysis.Pass) (any, error) {
			report := pass.Report
			pass.Report = func(d analysis.Diagnostic) {
				d.Message += suffix
				report(d)
			}
			return run(pass)
		}
	}
}

// withoutFacts returns copies of analyzers, and of everything they
// require, that declare no fact types: unitchecker runs none of them on a
// unit it analyses only for facts. Names and flags are the originals', so
// go vet's flags still parse.
func withoutFacts(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	copies := make(map[*analysis.Analyzer]*analysis.Analyzer)
	var strip func(a *analysis.Analyzer) *analysis.Analyzer
	strip = func(a *analysis.Analyzer) *analysis.Analyzer {
		if c, ok := copies[a]; ok {
			return c
		}
		c := new(analysis.Analyzer)
		*c = *a
		copies[a] = c
		c.FactTypes = nil
		c.Requires = make([]*analysis.Analyzer, len(a.Requires))
		for i, r := range a.Requires {
			c.Requires[i] = strip(r)
		}
		return c
	}
	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		out[i] = strip(a)
	}
	return out
}
