package main

import (
	"runtime/debug"
	"testing"
)

func TestFormatVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "8e32899296ac3e165fd3dbbe1667ef775b2c4f88"
	for _, c := range []struct {
		name    string
		stamped string
		bi      *debug.BuildInfo
		want    string
	}{
		{"no build info", "", nil, "devel"},
		{"go install @v0.1.0", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "v0.1.0"},
		{"clone at a tag", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}, Settings: vcs(rev, "false")}, "v0.1.0"},
		{"clone after a tag, changed", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.1-0.20261126005419-8e32899296ac+dirty"}, Settings: vcs(rev, "true")}, "v0.1.1-0.20261126005419-8e32899296ac+dirty"},
		{"no vcs stamping", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{"git settings without a version", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")}, "devel (8e32899296ac)"},
		{"git settings without a version, changed", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, "devel (8e32899296ac, modified)"},
		{"stamped by make build", "v0.0.0-20261126005419-8e32899296ac", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v0.0.0-20261126005419-8e32899296ac"},
	} {
		if got := formatVersion(c.stamped, c.bi); got != c.want {
			t.Errorf("%s: formatVersion = %q, want %q", c.name, got, c.want)
		}
	}
}

// SARIF's versions are SemVer 2.0, whatever the build: a development
// build is 0.0.0-devel, its commit in the build metadata.
func TestSemanticVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "8e32899296ac3e165fd3dbbe1667ef775b2c4f88"
	for _, c := range []struct {
		name    string
		stamped string
		bi      *debug.BuildInfo
		want    string
	}{
		{"no build info", "", nil, "0.0.0-devel"},
		{"go install @v0.1.0", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "0.1.0"},
		{"pseudo-version, changed", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.1-0.20261126005419-8e32899296ac+dirty"}, Settings: vcs(rev, "true")}, "0.1.1-0.20261126005419-8e32899296ac+dirty"},
		{"no vcs stamping", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "0.0.0-devel"},
		{"git settings without a version", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")}, "0.0.0-devel+8e32899296ac"},
		{"git settings without a version, changed", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, "0.0.0-devel+8e32899296ac.modified"},
		{"stamped by make build", "v0.0.0-20261126005419-8e32899296ac", nil, "0.0.0-20261126005419-8e32899296ac"},
		{"stamped without v, short", "1.2", nil, "1.2.0"},
		{"stamped, not a version", "main", &debug.BuildInfo{Settings: vcs(rev, "false")}, "0.0.0-devel+8e32899296ac"},
	} {
		got := semanticVersion(c.stamped, c.bi)
		if got != c.want || !semVer.MatchString(got) {
			t.Errorf("%s: semanticVersion = %q, want %q", c.name, got, c.want)
		}
	}
}
