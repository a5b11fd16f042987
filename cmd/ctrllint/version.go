package main

import "runtime/debug"

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
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12] // as pseudo-versions abbreviate it
	}
	if modified == "true" {
		return "devel (" + rev + ", modified)"
	}
	return "devel (" + rev + ")"
}
