package load

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// Asking the go command what it has built costs about as much as listing
// the graph (it hashes every file, as a build does to look its outputs
// up), which would double the cost of a run on a machine that has built
// everything. So ListHedged first lists as asked, and asks only when
// that listing is still running after hedgeAfter: on such a machine the
// listing is done by then, and where the go command is compiling, a
// listing that would take minutes is abandoned for Unbuilt's.
const hedgeAfter = 10 * time.Second

// ListHedged is List with how (NoSources or SourceRoots), unless the
// listing outlasts hedgeAfter and the go command has some package of the
// graph not built: then it is List with Unbuilt.
//
// Where an earlier run with the same export data directory found the
// graph not built (rememberUnbuilt), it is List with Unbuilt from the
// start: on a machine whose build cache stays empty, the export data kept
// then makes the hedge's seconds of compiling most of a run.
func ListHedged(ctx context.Context, opts *Options, how Sources) (*Listing, error) {
	if opts.FromSource || unbuiltBefore(opts) {
		return List(ctx, opts, Unbuilt)
	}
	first := func(ctx context.Context) (*Listing, error) { return List(ctx, opts, how) }
	return listHedged(ctx, opts, first, hedgeAfter)
}

// listHedged runs first, and, when it outlasts after and some package
// is not built, cancels it for an Unbuilt listing.
func listHedged(ctx context.Context, opts *Options, first func(context.Context) (*Listing, error), after time.Duration) (*Listing, error) {
	exportCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	type listed struct {
		l   *Listing
		err error
	}
	done := make(chan listed, 1)
	go func() {
		l, err := first(exportCtx)
		done <- listed{l, err}
	}()
	timer := time.NewTimer(after)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.l, r.err
	case <-timer.C:
	}
	built, err := Built(ctx, opts)
	if err != nil || !anyUnbuilt(built) {
		r := <-done // the go command says what is wrong, or finishes
		return r.l, r.err
	}
	select {
	case r := <-done:
		return r.l, r.err // done meanwhile: nothing is left to build
	default:
	}
	cancel()
	<-done
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return listSplit(ctx, opts, func() map[string]bool { return built })
}

// anyUnbuilt reports whether built has a package not built, other than a
// test's main package, which nothing imports and no run reads.
func anyUnbuilt(built map[string]bool) bool {
	for id, b := range built {
		if !b && !(strings.HasSuffix(id, ".test") && !strings.Contains(id, " ")) {
			return true
		}
	}
	return false
}

// unbuiltMark is the file whose presence says that the last run found
// some dependency not built (rememberUnbuilt), "" when opts keep no export
// data. It is one for every graph built into the same go build cache: a
// machine that lacks one graph's build lacks the next's too (a CI runner,
// the same module copied elsewhere), and a run that finds its graph built
// removes it.
func unbuiltMark(opts *Options) string {
	if opts.ExportDir == "" {
		return ""
	}
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	gocache := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOCACHE="); ok {
			gocache = v // the last one counts, as for exec
		}
	}
	sum := sha256.Sum256([]byte("GOCACHE=" + gocache))
	return filepath.Join(opts.ExportDir, "unbuilt", hex.EncodeToString(sum[:8]))
}

func unbuiltBefore(opts *Options) bool {
	mark := unbuiltMark(opts)
	if mark == "" {
		return false
	}
	_, err := os.Stat(mark)
	return err == nil
}

// rememberUnbuilt records whether some package of opts' graph was not
// built, for the next run's ListHedged.
func rememberUnbuilt(opts *Options, unbuilt bool) {
	mark := unbuiltMark(opts)
	switch {
	case mark == "":
	case unbuilt:
		WriteAtomically(mark, nil)
	default:
		os.Remove(mark)
	}
}

// anyUnbuiltDep reports whether built has a package not built among
// those roots depend on: the roots themselves are type-checked from
// source anyway.
func anyUnbuiltDep(roots []*packages.Package, built map[string]bool) bool {
	isRoot := make(map[string]bool, len(roots))
	for _, r := range roots {
		isRoot[r.ID] = true
	}
	unbuilt := false
	packages.Visit(roots, nil, func(p *packages.Package) {
		unbuilt = unbuilt || !isRoot[p.ID] && p.PkgPath != "unsafe" && !built[p.ID]
	})
	return unbuilt
}
