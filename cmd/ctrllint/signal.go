package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// An interrupted run must not leave the go command behind. go/packages
// starts `go list -export` in a process group of its own, so that
// cancelling it reaches the compilers it runs; the same isolation keeps a
// terminal's Ctrl-C, which goes to ctrllint's process group, from ever
// reaching it. Dying on the signal would orphan it, compiling for
// minutes. So the first SIGINT or SIGTERM only cancels the run's context:
// go/packages then interrupts that group (and kills it 5 s later), the
// driver returns once the packages being analysed are done, and only then
// does the process exit, with 128+signal as shells report it. Further
// signals are ignored while it waits, since exiting early is the orphaning
// this prevents.

// interrupted is the cause of a context cancelled by a signal.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string {
	name := e.sig.String()
	switch e.sig {
	case os.Interrupt:
		name = "SIGINT"
	case syscall.SIGTERM:
		name = "SIGTERM"
	}
	return "stopped by " + name
}

// withSignals returns a context cancelled, with an interrupted cause, by
// the first SIGINT or SIGTERM, and a function that stops listening.
func withSignals(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			cancel(interrupted{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
		// Only now: until the process exits, a signal must not kill it.
		signal.Stop(ch)
	}
}

// signalStatus reports whether ctx was cancelled by a signal, and the
// exit status that says so: 128 plus the signal's number (130 for SIGINT,
// 143 for SIGTERM).
func signalStatus(ctx context.Context) (int, bool) {
	var in interrupted
	if !errors.As(context.Cause(ctx), &in) {
		return 0, false
	}
	if s, ok := in.sig.(syscall.Signal); ok {
		return 128 + int(s), true
	}
	return exitError, true
}

// ownPipes makes a write to a closed stdout an error instead of the
// SIGPIPE that kills a Go program writing to a broken pipe on fd 1: the
// editor server and the gopls proxy then see the client gone, as when it
// closes their input, stop the go command and gopls, and exit 1 as the
// protocol asks. The command line keeps dying quietly under `| head`.
func ownPipes() func() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	return func() { signal.Stop(ch) }
}
