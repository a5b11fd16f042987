package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// What the go command is compiling, for the status line while it builds
// the export data of the listing (docs/README.md, "Progress"). It says
// nothing until it has built everything, and offers no count; but its
// compilers are processes of ours, whose command lines name the package
// they compile ("compile -o ... -p k8s.io/api/core/v1 ..."): a user who
// sees those names change knows that the run is not hung. Only where the
// process table can be read (compiling_linux.go); elsewhere, nothing.

// compiledPackage returns the import path a compiler's command line
// compiles, if argv is the go toolchain's compiler's.
func compiledPackage(argv []string) (string, bool) {
	if len(argv) == 0 || strings.TrimSuffix(filepath.Base(argv[0]), ".exe") != "compile" {
		return "", false
	}
	i := slices.Index(argv, "-p")
	if i < 0 || i+1 >= len(argv) {
		return "", false
	}
	return argv[i+1], true
}

// compilingText says what is being compiled: the first package in order
// and how many more.
func compilingText(pkgs []string) string {
	switch len(pkgs) {
	case 0:
		return ""
	case 1:
		return "compiling " + pkgs[0]
	}
	return "compiling " + pkgs[0] + fmt.Sprintf(" and %d more", len(pkgs)-1)
}
