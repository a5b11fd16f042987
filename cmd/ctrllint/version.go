package main

import (
	"runtime/debug"
	"strings"

	"golang.org/x/mod/semver"
)

// formatVersion is the version -V, SARIF's tool version and the editor
// server report: stamped, when make build stamped one; else the main
// module's version from the build info. The go command sets that from
// the module proxy for `go install ...@vX.Y.Z` (the tag), and from git for
// a build in a clone: the tag at HEAD, or a pseudo-version naming the
// commit (v0.1.1-0.20261126005419-8e32899296ac), with +dirty for
// uncommitted changes. A build without either is "devel", with the commit
// and whether the tree was modified when git's settings are there anyway.
func formatVersion(stamped string, bi *debug.BuildInfo) string {
	if stamped != "" {
		return stamped
	}
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v // a tag, or a pseudo-version (+dirty): it names the commit
	}
	rev, modified := vcsOf(bi)
	if rev == "" {
		return "devel"
	}
	if modified {
		return "devel (" + rev + ", modified)"
	}
	return "devel (" + rev + ")"
}

// semanticVersion is formatVersion's version as SARIF's tool version and
// semanticVersion want it: SemVer 2.0, which starts with a digit (SARIF
// validators warn of a version that does not). A tag or a pseudo-version
// is itself without its "v"; a development build, which has neither, is
// 0.0.0-devel, with the commit and "modified" as build metadata when the
// build info has them.
func semanticVersion(stamped string, bi *debug.BuildInfo) string {
	v := formatVersion(stamped, bi)
	if !strings.HasPrefix(v, "v") {
		v = "v" + v // a stamp without its v
	}
	if semver.IsValid(v) {
		return strings.TrimPrefix(semver.Canonical(v), "v") + semver.Build(v)
	}
	out := "0.0.0-devel"
	if rev, modified := vcsOf(bi); rev != "" {
		out += "+" + rev
		if modified {
			out += ".modified"
		}
	}
	return out
}

// vcsOf is the commit bi was built from, abbreviated as pseudo-versions
// abbreviate it, and whether the tree was modified; "" when unknown.
func vcsOf(bi *debug.BuildInfo) (rev string, modified bool) {
	if bi == nil {
		return "", false
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return rev, modified
}
