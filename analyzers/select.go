package analyzers

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Select returns the analyzers of All that enable and disable select, by
// the rule every front end shares (the command's -enable and -disable, go
// vet's, the editor server's and the golangci-lint plugin's enable and
// disable settings), golangci-lint's rule for its linters:
//
//   - every name must be an analyzer's; an unknown one is an error, never a
//     silent run of something else;
//   - enable, when not empty, runs only the analyzers it names; empty, all;
//   - disable removes the analyzers it names from that;
//   - an analyzer named in both is an error (golangci-lint: "can't be
//     disabled and enabled at one moment");
//   - a selection that leaves no analyzer is an error.
//
// The result keeps All's order.
func Select(enable, disable []string) ([]*analysis.Analyzer, error) {
	return SelectFrom(All(), enable, disable)
}

// SelectFrom is Select on another set of analyzers: New's fresh instances,
// or a test's.
func SelectFrom(set []*analysis.Analyzer, enable, disable []string) ([]*analysis.Analyzer, error) {
	known := func(n string) bool {
		return slices.ContainsFunc(set, func(a *analysis.Analyzer) bool { return a.Name == n })
	}
	var problems []string
	for _, l := range []struct {
		key   string
		names []string
	}{{"enable", enable}, {"disable", disable}} {
		var unknown []string
		for _, n := range l.names {
			if !known(n) && !slices.Contains(unknown, strconv.Quote(n)) {
				unknown = append(unknown, strconv.Quote(n))
			}
		}
		if len(unknown) > 0 {
			problems = append(problems, fmt.Sprintf("%s: unknown analyzer %s", l.key, strings.Join(unknown, ", ")))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s (analyzers: %s)", strings.Join(problems, "; "), names(set))
	}
	var both []string
	for _, n := range enable {
		if slices.Contains(disable, n) && !slices.Contains(both, n) {
			both = append(both, n)
		}
	}
	if len(both) > 0 {
		return nil, fmt.Errorf("%s both enabled and disabled: name each analyzer in one list", strings.Join(both, ", "))
	}
	var out []*analysis.Analyzer
	for _, a := range set {
		if len(enable) > 0 && !slices.Contains(enable, a.Name) || slices.Contains(disable, a.Name) {
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("enable and disable leave no analyzer to run (analyzers: %s)", names(set))
	}
	return out, nil
}

func names(set []*analysis.Analyzer) string {
	out := make([]string, len(set))
	for i, a := range set {
		out[i] = a.Name
	}
	return strings.Join(out, ", ")
}
