//go:build unix

package regular

import (
	"os"
	"syscall"
)

// openFlags open a named pipe without waiting for a writer, so that one put
// in place of the file after Check is refused, not read.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
