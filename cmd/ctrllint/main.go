// Command ctrllint reports bugs in Kubernetes controllers.
//
//	ctrllint [flags] packages...
//	go vet -vettool=$(command -v ctrllint) packages...
//
// Run ctrllint -h for the flags. Exit status: 0 nothing found, 1 findings
// reported, 2 the packages could not be loaded or analysed, or bad usage.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(entry(os.Args[1:], defaultSuite()))
}

// entry dispatches between go vet's protocol, the language server
// (ctrllint lsp) and the standalone command.
// Tests call it with their own analyzers, from the test binary re-run as
// a vet tool, so both modes are compared on the same analyzers.
func entry(args []string, s suite) int {
	if isVetInvocation(args) {
		runVet(s.analyzers) // exits
	}
	if isLSPInvocation(args) {
		return runLSP(context.Background(), args[1:], os.Stdin, os.Stdout, os.Stderr, s)
	}
	return run(context.Background(), args, os.Stdout, os.Stderr, s)
}
