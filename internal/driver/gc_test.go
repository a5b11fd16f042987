package driver

import "testing"

func TestGCPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, 100},        // nothing measured yet: the default
		{256 * mb, 25},  // kubernetes' pkg/controller: a quarter of headroom
		{1024 * mb, 25}, // bigger still: the same quarter
		{64 * mb, 300},  // controller-runtime: collect at 256 MB
		{200 * mb, 28},  // just under the floor's reach: 256 MB
		{16 * mb, 300},  // a small run: capped, since what is live grows as packages are analysed
	} {
		if got := gcPercent(tc.live); got != tc.want {
			t.Errorf("gcPercent(%d MB) = %d, want %d", tc.live/mb, got, tc.want)
		}
	}
}
