package load

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Export data costs nothing to read when the go command has already built
// it, and most of a first run when it has not: on a machine that never
// built the graph, `go list -export` compiles every dependency with the
// compiler's back end, for the few bytes of types the run reads of each
// (docs/performance.md). The go command says, without building anything,
// whether a package's build output is in its cache: `go list -f
// {{.Stale}}` computes the package's action ID as a build would and looks
// it up. Built lists that, so that List can ask export data only of the
// packages that have it, and type-check the others from source.

// Built returns, by ID, the packages of opts.Patterns' graph (with tests
// when opts.Tests, in go/packages' form "q [p.test]"), and whether the
// go command has their build output cached. A package is built only when
// every package it imports is: the cache is keyed by the dependencies'
// outputs.
func Built(ctx context.Context, opts *Options) (map[string]bool, error) {
	if len(opts.Patterns) == 0 {
		return nil, ErrNoPatterns
	}
	// go/packages' flags that decide what is built: without -pgo=off, a
	// main package's default.pgo would make other variants of its graph.
	args := []string{"list", "-e", "-deps", "-buildvcs=false", "-pgo=off", "-f", "{{.ImportPath}}\t{{not .Stale}}"}
	if opts.Tests {
		args = append(args, "-test")
	}
	if len(opts.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(opts.Tags, ","))
	}
	args = append(args, "--")
	args = append(args, opts.Patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, fmt.Errorf("go list: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	built := make(map[string]bool)
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		if id, b, ok := strings.Cut(sc.Text(), "\t"); ok {
			built[id] = b == "true"
		}
	}
	return built, sc.Err()
}
