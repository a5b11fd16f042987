// Command floor is the benchmark's floor (hack/bench): it loads and
// type-checks packages exactly as ctrllint does — golang.org/x/tools/go/packages
// with the driver's mode, roots from source, dependencies from the go
// command's export data — and does nothing else. No analyzer, no SSA, no
// output beyond a count. What ctrllint takes beyond the floor is what its
// analysis costs.
//
//	floor [-test] [-source] [-tags a,b] packages...
//
// It exits 0 when every package loaded and type-checked cleanly, 1 when some
// did not (the count says how many), 2 when the go command failed.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver"
)

func main() {
	tests := flag.Bool("test", false, "load _test.go files too (ctrllint -test)")
	tags := flag.String("tags", "", "comma-separated build tags")
	source := flag.Bool("source", false, "type-check every package of the graph from source, as go/packages' LoadAllSyntax does, instead of decoding the dependencies' export data: the floor of a run from an empty build cache")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: floor [-test] [-source] [-tags a,b] packages...")
		os.Exit(2)
	}
	mode := driver.RootMode
	if *source {
		mode |= packages.NeedDeps
	}
	cfg := &packages.Config{Mode: mode, Tests: *tests}
	if *tags != "" {
		cfg.BuildFlags = []string{"-tags=" + *tags}
	}
	pkgs, err := packages.Load(cfg, flag.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(2)
	}
	bad := 0
	files := 0
	for _, p := range pkgs {
		files += len(p.Syntax)
		if p.IllTyped || len(p.Errors) > 0 {
			bad++
			for _, e := range p.Errors {
				fmt.Fprintln(os.Stderr, "floor:", strings.TrimSpace(e.Error()))
			}
		}
	}
	fmt.Fprintf(os.Stderr, "floor: %d packages, %d files type-checked, %d with errors\n", len(pkgs), files, bad)
	if bad > 0 {
		os.Exit(1)
	}
}
