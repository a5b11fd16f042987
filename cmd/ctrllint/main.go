// Command ctrllint reports bugs in Kubernetes controllers.
//
//	ctrllint [flags] packages...
//	go vet -vettool=$(command -v ctrllint) packages...
//	ctrllint lsp | ctrllint gopls [-- gopls args]   (editors)
//
// Run ctrllint -h for the flags. Exit status: 0 nothing found, 1 findings
// reported, 2 the packages could not be loaded or analysed, or bad usage,
// 130 and 143 interrupted by SIGINT and SIGTERM.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(entry(proxyArgs(os.Args[0], os.Args[1:]), defaultSuite()))
}

// entry dispatches between go vet's protocol, the language server
// (ctrllint lsp), the gopls proxy (ctrllint gopls) and the standalone
// command.
// Tests call it with their own analyzers, from the test binary re-run as
// a vet tool, so both modes are compared on the same analyzers.
func entry(args []string, s suite) int {
	if isVetInvocation(args) {
		runVet(args, s.analyzers) // exits
	}
	ctx, stop := withSignals(context.Background())
	defer stop()
	if isLSPInvocation(args) || isGoplsInvocation(args) {
		defer ownPipes()()
	}
	if isLSPInvocation(args) {
		return interruptStatus(ctx, runLSP(ctx, args[1:], os.Stdin, os.Stdout, os.Stderr, s), "ctrllint lsp", os.Stderr)
	}
	if isGoplsInvocation(args) {
		return interruptStatus(ctx, runGopls(ctx, args[1:], os.Stdin, os.Stdout, os.Stderr, s), "ctrllint gopls", os.Stderr)
	}
	return interruptStatus(ctx, run(ctx, args, os.Stdout, os.Stderr, s), "ctrllint", os.Stderr)
}

// interruptStatus is the exit status of a run that returned code: the
// signal's, if one arrived while it ran, whatever the run made of it.
// run reports a signal that cut the analysis short itself; one that came
// later, or that ended the language server, is reported here.
func interruptStatus(ctx context.Context, code int, prog string, stderr io.Writer) int {
	st, ok := signalStatus(ctx)
	if !ok || code == st {
		return code
	}
	fmt.Fprintf(stderr, "%s: %v\n", prog, context.Cause(ctx))
	return st
}
