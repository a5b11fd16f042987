//go:build unix

package testanalyzers

import (
	"syscall"
	"testing"
)

// LimitFileSize sets the process's file size limit to n bytes, so that a
// write past it fails part-way as on a full disk (unlike permissions, it
// stops root too). It lasts as long as the process: call it in a helper
// process the test starts.
func LimitFileSize(t testing.TB, n uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	lim.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
}
