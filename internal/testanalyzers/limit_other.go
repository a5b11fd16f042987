//go:build !unix

package testanalyzers

import (
	"runtime"
	"testing"
)

// LimitFileSize skips the test: there is no file size limit to set on
// this system.
func LimitFileSize(t testing.TB, n uint64) {
	t.Skip("no file size limit on " + runtime.GOOS)
}
