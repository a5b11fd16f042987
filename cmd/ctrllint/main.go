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

	"github.com/ctrllint/ctrllint/analyzers"
)

func main() {
	if isVetInvocation(os.Args[1:]) {
		runVet(analyzers.All()) // does not return
	}
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, defaultSuite()))
}
