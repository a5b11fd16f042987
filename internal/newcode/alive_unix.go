//go:build unix

package newcode

import (
	"errors"
	"os"
	"syscall"
)

// processAlive reports whether a process with pid runs (signal 0 checks
// without sending).
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
