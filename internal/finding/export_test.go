package finding

import "testing"

// SetStagedHook makes Write call f once the new contents are staged,
// until the test ends.
func SetStagedHook(t testing.TB, f func()) {
	stagedHook = f
	t.Cleanup(func() { stagedHook = nil })
}
