// Command realbugs measures ctrllint's recall on real bugs: historical bugs
// of its classes that were fixed upstream (realbugs.json, docs/corpus.md).
// For each bug it materialises the module at the last version with the bug
// and at the first with the fix (from the module proxy, as hack/corpus
// does), runs ctrllint with the default flags on the bug's package, and
// checks that the bug's analyzer reports inside the bug's function at the
// buggy version and nowhere in that function at the fixed one.
//
// Usage:
//
//	go run ./hack/realbugs [-ctrllint bin/ctrllint] [-cache DIR] [-ci] [-only a,b]
//
// It prints every bug's outcome and the recall per analyzer, and exits 1
// when an outcome differs from what realbugs.json records (a bug newly
// detected or newly missed), when a fixed version is reported, or when
// ctrllint fails on a version (exit 2, a panic, an internal error). -ci runs
// the subset `make test` runs.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctrllint/ctrllint/hack/internal/bugs"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "realbugs:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("realbugs", flag.ContinueOnError)
	bin := fs.String("ctrllint", "bin/ctrllint", "the ctrllint binary to run")
	cache := fs.String("cache", defaultCache(), "where module versions are materialised and the report written")
	ci := fs.Bool("ci", false, "run only the bugs marked ci (the subset make test runs)")
	only := fs.String("only", "", "comma-separated bug names to run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	all, err := bugs.Load(here("realbugs.json"))
	if err != nil {
		return err
	}
	selected, err := choose(all, *ci, *only)
	if err != nil {
		return err
	}
	absBin, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(absBin); err != nil {
		return fmt.Errorf("ctrllint binary: %v (make build)", err)
	}
	if err := os.MkdirAll(*cache, 0o755); err != nil {
		return err
	}
	outcomes := measure(absBin, *cache, selected)
	report := summarise(outcomes)
	fmt.Print(report)
	if err := os.WriteFile(filepath.Join(*cache, "report.txt"), []byte(report), 0o644); err != nil {
		return err
	}
	if n := failed(outcomes); n > 0 {
		return fmt.Errorf("%d of %d bugs differ from hack/realbugs/realbugs.json (see above)", n, len(outcomes))
	}
	return nil
}

func choose(all []bugs.Bug, ci bool, only string) ([]bugs.Bug, error) {
	if only != "" {
		byName := map[string]bugs.Bug{}
		for _, b := range all {
			byName[b.Name] = b
		}
		var out []bugs.Bug
		for _, name := range strings.Split(only, ",") {
			b, ok := byName[name]
			if !ok {
				return nil, fmt.Errorf("no bug %q in realbugs.json", name)
			}
			out = append(out, b)
		}
		return out, nil
	}
	if !ci {
		return all, nil
	}
	var out []bugs.Bug
	for _, b := range all {
		if b.CI {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no bug in realbugs.json is marked ci")
	}
	return out, nil
}

// here names this command's data file from the repository root (make runs
// it there) or from this directory (go test).
func here(name string) string {
	if _, err := os.Stat(filepath.Join("hack", "realbugs", name)); err == nil {
		return filepath.Join("hack", "realbugs", name)
	}
	return name
}

func defaultCache() string {
	if d := os.Getenv("CTRLLINT_REALBUGS"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "ctrllint", "realbugs")
}
