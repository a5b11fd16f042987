package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/ctrllint/ctrllint/internal/driver"
)

// What a run shows of its progress (docs/README.md, "Progress"). On a
// terminal, a status line on stderr says which phase the run is in and how
// far it has got, rewritten in place and erased before anything else is
// printed: a cold run spends minutes in the go command, which prints
// nothing until it has built every dependency, and a user must be able to
// tell that from a hang. With -v, a summary of how long each phase took is
// printed at the end, on a terminal or not. Nothing else, and never on
// stdout: what is printed there is machine output. go vet's -vettool mode
// and `ctrllint lsp` show no progress: go vet and the editor own the
// terminal there.

// redrawInterval is the least time between two redraws of the status line.
const redrawInterval = 100 * time.Millisecond

// compilingEvery is how many redraws apart the process table is read for
// the go command's compilers (compiling.go): twice a second.
const compilingEvery = 5

// progressReport is one run's progress, as shown on stderr.
type progressReport struct {
	stderr    io.Writer   // as the command was given it
	line      *statusLine // nil when stderr is not a terminal
	verbose   bool
	analyzers int
	now       func() time.Time
	stopTick  func()
	stopAfter func() bool

	mu       sync.Mutex
	start    time.Time
	state    driver.Progress
	told     bool
	fixing   bool
	stopping bool     // a signal came: the run waits for what it started
	compiles []string // what the go command's compilers compile now
	times    timings
	stopped  bool
}

// startProgress starts showing a run's progress on stderr: a status line
// if stderr is a terminal, the timings for -v.
func startProgress(ctx context.Context, stderr io.Writer, verbose bool, analyzers int) *progressReport {
	r := newProgressReport(stderr, verbose, analyzers, time.Now)
	if fd, ok := terminal(stderr); ok {
		// The ticker draws; the line's own limit, a little under the
		// ticker's interval so that a late tick is not skipped, stops
		// anything else from drawing more often.
		r.line = &statusLine{w: stderr, width: termWidth(fd), now: r.now, interval: redrawInterval * 9 / 10, text: r.text}
		tick := time.NewTicker(redrawInterval)
		done, exited := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(exited)
			for n := 0; ; n++ {
				select {
				case <-tick.C:
					if n%compilingEvery == 0 {
						r.lookAtCompilers()
					}
					r.line.redraw()
				case <-done:
					return
				}
			}
		}()
		r.stopTick = func() { tick.Stop(); close(done); <-exited }
		r.stopAfter = context.AfterFunc(ctx, func() {
			r.mu.Lock()
			r.stopping = true
			r.mu.Unlock()
		})
	}
	return r
}

// newProgressReport returns a report that shows nothing on its own.
func newProgressReport(stderr io.Writer, verbose bool, analyzers int, now func() time.Time) *progressReport {
	r := &progressReport{stderr: stderr, verbose: verbose, analyzers: analyzers, now: now, start: now()}
	r.times.start = r.start
	return r
}

// terminal returns the file descriptor of w if it is a terminal that can
// rewrite a line: not a pipe, a file or a dumb terminal (TERM=dumb, as
// Emacs' shell sets it).
func terminal(w io.Writer) (int, bool) {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return 0, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

// termWidth returns the terminal's width now, read at each redraw since a
// window can be resized during a run; 80 columns if it cannot be read.
func termWidth(fd int) func() int {
	return func() int {
		if w, _, err := term.GetSize(fd); err == nil && w > 0 {
			return w
		}
		return 80
	}
}

// writer is where the command writes to stderr while the run lasts: it
// erases the status line first.
func (r *progressReport) writer() io.Writer {
	if r.line == nil {
		return r.stderr
	}
	return r.line
}

// hook is driver.Config.Progress, nil when nothing is shown: the driver
// then keeps no count. It only records: the line is drawn by its own
// ticker, so that the driver's workers never wait for the terminal.
func (r *progressReport) hook() func(driver.Progress) {
	if r.line == nil && !r.verbose {
		return nil
	}
	return func(p driver.Progress) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.state, r.told = p, true
		r.times.update(p, r.now())
	}
}

// lookAtCompilers reads what the go command compiles while it builds the
// listing's export data, outside the lock: reading the process table takes
// a few milliseconds.
func (r *progressReport) lookAtCompilers() {
	r.mu.Lock()
	building := r.told && r.state.Stage == driver.Listing && r.state.Export && !r.stopping
	r.mu.Unlock()
	var pkgs []string
	if building {
		pkgs = compilingNow()
	}
	r.mu.Lock()
	r.compiles = pkgs
	r.mu.Unlock()
}

// fixes says that -fix is writing fixes; fixed that it is done.
func (r *progressReport) fixes() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fixing = true
	r.times.fixing = r.now()
}

func (r *progressReport) fixed() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fixing = false
	r.times.fixed = r.now().Sub(r.times.fixing)
}

// stop erases the status line for good: the command is about to print
// its results. It may be called more than once.
func (r *progressReport) stop() {
	r.mu.Lock()
	stopped := r.stopped
	r.stopped = true
	r.mu.Unlock()
	if stopped || r.line == nil {
		return
	}
	r.stopAfter()
	r.stopTick()
	r.line.close()
}

// end stops the line and, with -v, prints the summary, unless a signal
// stopped the run: then "stopped by" is the last word.
func (r *progressReport) end(ctx context.Context) {
	r.stop()
	if _, interrupted := signalStatus(ctx); !r.verbose || interrupted {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.stderr, "ctrllint: %s\n", r.times.summary(r.analyzers, r.now()))
}

// text is what the status line shows at now.
func (r *progressReport) text(now time.Time) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.state
	var what string
	switch {
	case r.stopping:
		what = "stopping: waiting for the go command and the packages being analysed to finish"
	case r.fixing:
		what = "writing fixes"
	case !r.told:
		return ""
	case p.Stage == driver.Listing && p.Export:
		// The count of packages compiled is not known: the go command
		// says nothing until it is done; its compilers say what they
		// compile (compiling.go).
		what = "listing packages and building their dependencies (go list -export)"
		if c := compilingText(r.compiles); c != "" {
			what += ": " + c
		}
	case p.Stage == driver.Listing:
		what = "listing packages (go list)"
	default:
		var parts []string
		if p.Decoded < p.ToDecode {
			parts = append(parts, fmt.Sprintf("decoding dependencies %d of %d", p.Decoded, p.ToDecode))
		}
		a := fmt.Sprintf("analysing packages %d of %d", p.Analysed, p.Roots)
		if p.Cached > 0 {
			a += fmt.Sprintf(" (%d from cache)", p.Cached)
		}
		what = strings.Join(append(parts, a), ", ")
	}
	// The time first: a narrow terminal cuts the end of the line.
	return fmt.Sprintf("ctrllint: [%s] %s", elapsed(now.Sub(r.start)), what)
}

// elapsed is d in whole seconds, then minutes and seconds.
func elapsed(d time.Duration) string {
	s := int(d.Seconds())
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}
