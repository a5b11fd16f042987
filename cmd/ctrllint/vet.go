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
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
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
// -flags lists them).
func runVet(args []string, all []*analysis.Analyzer) {
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		if _, err := readVetConfig(args[len(args)-1]); err != nil {
			fmt.Fprintf(os.Stderr, "ctrllint: %v\n", err)
			os.Exit(exitError)
		}
	}
	flag.Var(&vetSelect{all: all, value: "true"}, "enable", "comma-separated analyzers to run (default all)")
	flag.Var(&vetSelect{all: all, value: "false"}, "disable", "comma-separated analyzers not to run")
	unitchecker.Main(all...)
}

// vetSelect translates -enable/-disable into unitchecker's per-analyzer
// flags, which exist by the time flag.Parse calls Set.
type vetSelect struct {
	all   []*analysis.Analyzer
	value string
	names string
}

func (v *vetSelect) String() string { return v.names }

func (v *vetSelect) Set(s string) error {
	names, err := parseNames(s, v.all)
	if err != nil {
		return err
	}
	for _, n := range names {
		if err := flag.Set(n, v.value); err != nil {
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
