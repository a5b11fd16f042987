package plugin

import (
	"fmt"

	"golang.org/x/tools/go/analysis"
)

// configure sets an analyzer's options (flag name -> value) on a, which
// must be a fresh instance from analyzers.New: its flags are its own, so
// nothing leaks to the ctrllint command or to other plugin instances.
func configure(a *analysis.Analyzer, opts map[string]string) (*analysis.Analyzer, error) {
	for name, value := range opts {
		if err := a.Flags.Set(name, value); err != nil {
			return nil, fmt.Errorf("%s.%s: %v", a.Name, name, err)
		}
	}
	return a, nil
}
