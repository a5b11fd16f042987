package load

import (
	"context"
	"strings"
	"time"
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
func ListHedged(ctx context.Context, opts *Options, how Sources) (*Listing, error) {
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
