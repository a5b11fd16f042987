package main

import (
	"fmt"
	"strings"
)

// command is one of ctrllint's commands besides the analysis of packages
// (ctrllint NAME [flags]), which ctrllint -h lists: a newcomer reading the
// flags would otherwise not learn that they exist.
type command struct {
	name    string
	args    string // after the name, for the usage line
	summary string // one line
}

// commands are those entry dispatches (TestUsageListsCommands runs each
// with -h).
var commands = []command{
	{"lsp", "[flags]", "a language server that editors start beside gopls (findings, quick fixes)"},
	{"gopls", "[flags] [-- gopls arguments]", "gopls with ctrllint's findings merged in, that editors start in its place"},
}

// usageText is the head of ctrllint -h, above the flags.
func usageText() string {
	var b strings.Builder
	b.WriteString("usage: ctrllint [flags] packages...\n")
	width := 0
	for _, c := range commands {
		fmt.Fprintf(&b, "       ctrllint %s %s\n", c.name, c.args)
		width = max(width, len(c.name))
	}
	b.WriteString(`       go vet -vettool=$(command -v ctrllint) [-enable a,b] [-disable a,b] packages...

ctrllint reports bugs in Kubernetes controllers.
Packages are go list patterns, e.g. ./... (there is no default).

Commands (ctrllint COMMAND -h for a command's flags; set-up: docs/editors.md):
`)
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.name, c.summary)
	}
	b.WriteString(`
Exit status: 0 nothing found, 1 findings reported,
2 packages could not be loaded or analysed, or bad usage.

Flags:
`)
	return b.String()
}
