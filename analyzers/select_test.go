package analyzers_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers"
)

func names(as []*analysis.Analyzer) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

// The one selection rule of every front end.
func TestSelect(t *testing.T) {
	all := names(analyzers.All())
	without := func(drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(n string) bool { return slices.Contains(drop, n) })
	}
	for _, tc := range []struct {
		name            string
		enable, disable []string
		want            []string
		wantErr         []string
	}{
		{name: "nothing given", want: all},
		{name: "enable", enable: []string{"forget", "tombstone"}, want: []string{"tombstone", "forget"}},
		{name: "enable twice", enable: []string{"forget", "forget"}, want: []string{"forget"}},
		{name: "disable", disable: []string{"sharedowner"}, want: without("sharedowner")},
		{name: "enable and disable", enable: []string{"tombstone", "forget"}, disable: []string{"queuedone"}, want: []string{"tombstone", "forget"}},
		{name: "both", enable: []string{"tombstone", "forget"}, disable: []string{"forget"},
			wantErr: []string{"forget both enabled and disabled"}},
		{name: "unknown in enable", enable: []string{"tombstone", "tombstones"},
			wantErr: []string{`enable: unknown analyzer "tombstones"`, "(analyzers: " + strings.Join(all, ", ") + ")"}},
		{name: "unknown in both", enable: []string{"x"}, disable: []string{"y", "z"},
			wantErr: []string{`enable: unknown analyzer "x"; disable: unknown analyzer "y", "z"`}},
		{name: "none left", disable: all, wantErr: []string{"leave no analyzer to run"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := analyzers.Select(tc.enable, tc.disable)
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("selected %v, want an error", names(got))
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(got), tc.want) {
				t.Errorf("selected %v, want %v", names(got), tc.want)
			}
		})
	}
}
