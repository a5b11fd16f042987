package driver

import "context"

// AnalyzeSourceRoots is Analyze listing as a re-run after an edit does:
// the roots that only roots import without export data (load/split.go).
func AnalyzeSourceRoots(ctx context.Context, cfg *Config) (*Result, error) {
	c := *cfg
	c.sourceRoots = true
	return Analyze(ctx, &c)
}
