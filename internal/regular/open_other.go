//go:build !unix

package regular

import "os"

// openFlags: Check refuses named pipes; there is no O_NONBLOCK to make the
// open itself safe.
const openFlags = os.O_RDONLY
