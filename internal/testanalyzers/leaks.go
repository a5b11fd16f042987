package testanalyzers

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// NoLeaks fails t if, within two seconds, goroutines whose stacks mention
// any of markers (function names, package paths) are still running: a
// server's goroutines must end with it.
func NoLeaks(t testing.TB, markers ...string) {
	t.Helper()
	var leaked []string
	for range 100 {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		leaked = leaked[:0]
		for g := range strings.SplitSeq(string(buf), "\n\n") {
			for _, m := range markers {
				if strings.Contains(g, m) {
					leaked = append(leaked, g)
					break
				}
			}
		}
		if len(leaked) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("goroutines left running:\n%s", strings.Join(leaked, "\n\n"))
}
