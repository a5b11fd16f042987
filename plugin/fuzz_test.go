package plugin

import (
	"encoding/json"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers"
)

// FuzzParseSettings: any settings golangci-lint could hand the plugin (any
// JSON-shaped value from YAML) are accepted or rejected with an error —
// never a panic — and accepted ones build analyzers.
func FuzzParseSettings(f *testing.F) {
	for _, seed := range []string{
		`null`,
		`{}`,
		`{"disable": ["sharedowner"]}`,
		`{"enable": ["tombstone", "forget"], "listerbypass": {"all": true}}`,
		`{"enable": ["nosuch"]}`,
		`{"enable": ["tombstone"], "disable": ["forget"]}`,
		`{"listerbypass": {"all": "yes"}}`,
		`{"listerbypass": {"nosuch": 1}}`,
		`{"tombstone": {"x": 1}}`,
		`[1, 2]`,
		`"text"`,
		`{"disable": [1, null, {}]}`,
		`{"exclude-paths": ["^gen/", "("]}`,
		`{"exclude-paths": "x"}`,
		`{"severity": {"tombstone": "error"}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var settings any
		if err := json.Unmarshal([]byte(raw), &settings); err != nil {
			return // not something YAML could produce either
		}
		all := analyzers.New()
		s, err := ParseSettings(settings, all)
		if err != nil {
			return
		}
		if _, err := s.Analyzers(all); err != nil {
			t.Fatalf("accepted settings %s fail to configure: %v", raw, err)
		}
	})
}
