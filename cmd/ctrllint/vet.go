package main

import (
	"flag"
	"fmt"
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
func runVet(all []*analysis.Analyzer) {
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
