package rbacmarkers

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// resourceNames is the resources option: the plural resource name of
// kinds, keyed Kind.group (Kind for the core group).
type resourceNames map[string]string

func (r resourceNames) String() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(r)) {
		parts = append(parts, k+"="+r[k])
	}
	return strings.Join(parts, ",")
}

// Set reads Kind.group=plural pairs separated by commas; it replaces what
// was set before.
func (r resourceNames) Set(s string) error {
	parsed := map[string]string{}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, plural, ok := strings.Cut(part, "=")
		key, plural = strings.TrimSpace(key), strings.TrimSpace(plural)
		kind, _, _ := strings.Cut(key, ".")
		if !ok || kind == "" || plural == "" || strings.ContainsAny(plural, "/;,= ") || kind[0] < 'A' || kind[0] > 'Z' {
			return fmt.Errorf("want Kind.group=plural (Kind=plural for the core group), got %q", part)
		}
		parsed[key] = plural
	}
	clear(r)
	maps.Copy(r, parsed)
	return nil
}

// Get is the option's value as a string, for the settings' type check.
func (r resourceNames) Get() any { return r.String() }
