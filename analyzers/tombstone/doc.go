// Package tombstone defines an Analyzer that reports informer delete handlers
// that mishandle cache.DeletedFinalStateUnknown tombstones.
//
// # Analyzer tombstone
//
// tombstone: report delete handlers that panic on or drop cache.DeletedFinalStateUnknown tombstones
//
// (being written)
//
// # Wrong
//
// # TBD
//
// # Right
//
// # TBD
//
// # Fix
//
// # TBD
//
// # Suppress
//
// # TBD
//
// # Not reported
//
// TBD
package tombstone

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
