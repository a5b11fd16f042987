package main

import (
	"fmt"
	"slices"
)

// A finding's severity, as JSON's "severity" writes it. The other formats
// map it to their own levels: GitHub's notice for note, checkstyle's info.
const (
	severityError   = "error"
	severityWarning = "warning"
	severityNote    = "note"
)

// severityLevels are the severities, most severe first.
var severityLevels = []string{severityError, severityWarning, severityNote}

// defaultSeverity is every analyzer's severity when nothing configures
// one: each finding is a likely bug, none a certain one (the severity of
// a problem that stopped the analysis, "error", is not an analyzer's).
func defaultSeverity(analyzer string) string { return severityWarning }

// checkSeverity refuses a severity no output can carry, so that a wrong
// value from configuration is an error rather than a silently
// different level in some formats.
func checkSeverity(analyzer, s string) error {
	if slices.Contains(severityLevels, s) {
		return nil
	}
	return fmt.Errorf("severity %q of analyzer %s is not %s, %s or %s", s, analyzer, severityError, severityWarning, severityNote)
}
