// Command corpus runs ctrllint over pinned real-world controller code and
// compares what it reports with the checked-in triage, so that every change
// in precision is seen and explained (docs/corpus.md).
//
// Usage:
//
//	go run ./hack/corpus run    [-ctrllint bin/ctrllint] [-cache DIR] [-only a,b]
//	go run ./hack/corpus render [-o docs/corpus.md] [-readme README.md]
//
// run materialises each entry of corpus.json into the cache (once; a stamp
// records what was built), runs `ctrllint -f json` over its patterns with
// the default flags (their tests included), writes report.json and
// report.txt into the cache, and exits 1 when a finding is not in
// triage.json, when a triaged finding that should be reported is not, or
// when ctrllint fails on an entry (exit 2, a panic, an internal error).
// render writes docs/corpus.md and the README's precision table from
// triage.json.
package main

import (
	"flag"
	"fmt"
	"github.com/ctrllint/ctrllint/hack/internal/bugs"
	"github.com/ctrllint/ctrllint/hack/internal/pinned"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	cmd, args := os.Args[1], os.Args[2:]
	var err error
	switch cmd {
	case "run":
		err = runCmd(args)
	case "render":
		err = renderCmd(args)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: corpus run [-ctrllint BIN] [-cache DIR] [-only NAMES] | corpus render [-o FILE]")
	os.Exit(2)
}

// here is the directory of this command's data files, from the repository
// root (make runs it there) or from this directory (go test).
func here(name string) string {
	if _, err := os.Stat(filepath.Join("hack", "corpus", name)); err == nil {
		return filepath.Join("hack", "corpus", name)
	}
	return name
}

// realbugsFile is the real-bug benchmark's data, whose recall the docs show.
func realbugsFile() string {
	if _, err := os.Stat(filepath.Join("hack", "realbugs", "realbugs.json")); err == nil {
		return filepath.Join("hack", "realbugs", "realbugs.json")
	}
	return filepath.Join("..", "realbugs", "realbugs.json")
}

func defaultCache() string {
	if d := os.Getenv("CTRLLINT_CORPUS"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "ctrllint", "corpus")
}

func runCmd(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	bin := fs.String("ctrllint", "bin/ctrllint", "the ctrllint binary to run")
	cache := fs.String("cache", defaultCache(), "where entries are materialised and reports written")
	only := fs.String("only", "", "comma-separated entry names to run (default: all); the triage check then covers only these")
	fromSource := fs.Bool("from-source", false, "run ctrllint as on a machine that built nothing (CTRLLINT_FROM_SOURCE=1), with a result and export data cache of the run's own: dependencies are type-checked from source, or decoded from what an earlier entry kept")
	fs.Parse(args)
	if fs.NArg() != 0 {
		return fmt.Errorf("run: unexpected arguments %q", fs.Args())
	}
	cfg, err := loadConfig(here("corpus.json"))
	if err != nil {
		return err
	}
	tri, err := loadTriage(here("triage.json"))
	if err != nil {
		return err
	}
	entries := cfg.Entries
	if *only != "" {
		entries = nil
		for _, name := range strings.Split(*only, ",") {
			e, ok := cfg.entry(name)
			if !ok {
				return fmt.Errorf("run: no entry %q in corpus.json", name)
			}
			entries = append(entries, e)
		}
	}
	absBin, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(absBin); err != nil {
		return fmt.Errorf("run: ctrllint binary: %v (make build)", err)
	}
	if err := os.MkdirAll(*cache, 0o755); err != nil {
		return err
	}
	var env []string
	if *fromSource {
		tmp, err := os.MkdirTemp("", "ctrllint-corpus-cache-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		env = append(os.Environ(), "CTRLLINT_FROM_SOURCE=1", "CTRLLINT_CACHE="+tmp)
	}
	var results []pinned.Result
	for _, e := range entries {
		fmt.Fprintf(os.Stderr, "corpus: %s %s\n", e.Name, e.Version)
		dir, err := pinned.Materialise(*cache, e)
		if err != nil {
			return fmt.Errorf("%s: %v", e.Name, err)
		}
		r := pinned.AnalyseWith(absBin, dir, e, env)
		fmt.Fprintf(os.Stderr, "corpus: %s: %d packages, %d findings, %.1fs, %d MB peak\n",
			e.Name, r.Packages, len(r.Findings), r.Seconds, r.PeakMB)
		results = append(results, r)
	}
	if err := writeReports(*cache, results); err != nil {
		return err
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name] = true
	}
	d := compare(tri, results, names)
	d.print(os.Stdout, results)
	fmt.Printf("reports: %s\n", filepath.Join(*cache, "report.txt"))
	if !d.ok() {
		return fmt.Errorf("the corpus report differs from hack/corpus/triage.json (see above)")
	}
	return nil
}

func renderCmd(args []string) error {
	fs := flag.NewFlagSet("render", flag.ExitOnError)
	out := fs.String("o", "docs/corpus.md", "output file")
	readme := fs.String("readme", "README.md", "README whose precision table to update (empty: none)")
	fs.Parse(args)
	cfg, err := loadConfig(here("corpus.json"))
	if err != nil {
		return err
	}
	tri, err := loadTriage(here("triage.json"))
	if err != nil {
		return err
	}
	real, err := bugs.Load(realbugsFile())
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, []byte(render(cfg, tri, real)), 0o644); err != nil {
		return err
	}
	if *readme == "" {
		return nil
	}
	text, err := os.ReadFile(*readme)
	if err != nil {
		return err
	}
	updated, err := withPrecision(string(text), tri, real)
	if err != nil {
		return err
	}
	return os.WriteFile(*readme, []byte(updated), 0o644)
}
