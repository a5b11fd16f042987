// Package rbacmarkers defines an Analyzer that reports +kubebuilder:rbac
// markers out of step with the calls the code makes.
//
// # Analyzer rbacmarkers
//
// rbacmarkers: report client calls no +kubebuilder:rbac marker grants, and markers controller-gen never reads
//
// TODO.
//
// # Wrong
//
// TODO
//
// # Right
//
// TODO
//
// # Fix
//
// TODO
//
// # Suppress
//
// TODO
//
// # Not reported
//
// TODO
package rbacmarkers

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
