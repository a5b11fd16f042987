package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctrllint/ctrllint/internal/synthetic"
)

// The generated scenario is issue 29's: a package whose generated files
// dwarf its hand-written code, where everything the analyzers would find
// in the generated files is dropped. internal/synthetic writes it
// (-generated kinds of deep copies, defaulters and listers, some 130
// lines a kind, beside a small controller) into a scratch module with
// testdata/src/current's requirements; each round runs the floor and
// ctrllint there, cold and warm.

// generatedTarget writes the scenario's module and returns the target to
// measure there.
func (b *bench) generatedTarget() (*targetResult, error) {
	dst := filepath.Join(b.scratch, "generated")
	fixture := locate(filepath.Join("testdata", "src", "current"))
	lines, err := synthetic.Write(dst, fixture, "example.com/widgets", "widgets", b.o.generated)
	if err != nil {
		return nil, fmt.Errorf("-generated: %v", err)
	}
	t := &targetResult{
		Entry:    fmt.Sprintf("a package with %d generated lines (%d kinds)", lines, b.o.generated),
		Dir:      dst,
		Patterns: []string{"./..."},
	}
	if t.Size, err = measureSizeEnv(dst, t.Patterns, editEnv()); err != nil {
		return nil, err
	}
	return t, nil
}

// generatedScenario measures the generated scenario: -rounds rounds, after
// a warm-up round when -warmup, of the floor and ctrllint only.
func (b *bench) generatedScenario() (*targetResult, error) {
	t, err := b.generatedTarget()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "bench: generated: %d packages, %d lines in %s\n", t.Size.Packages, t.Size.Lines, t.Dir)
	o := *b.o
	o.tools = map[string]bool{"floor": true, "ctrllint": true}
	gb := *b
	gb.o = &o
	if o.warmup {
		gb.roundEnv(t, 0, true, editEnv(), nil)
	}
	for r := 1; r <= o.rounds; r++ {
		gb.roundEnv(t, r, false, editEnv(), nil)
	}
	return t, nil
}

// generatedMarkdown is the generated scenario's section of the report.
func generatedMarkdown(t *targetResult) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("\n## Generated files\n\n")
	p("%s: internal/synthetic's deep copies, defaulters and listers beside a small hand-written controller, `%s` in %s (%d lines of non-test Go). ", t.Entry, strings.Join(t.Patterns, " "), t.Dir, t.Size.Lines)
	p("What the analyzers would find in the generated files is dropped; what the controller calls there is still summarised.\n\n")
	p("%s", t.table())
	if notes := t.notes(true); notes != "" {
		p("\n%s", notes)
	}
	return b.String()
}
