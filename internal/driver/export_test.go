package driver

import (
	"context"

	"github.com/ctrllint/ctrllint/internal/driver/load"
)

// AnalyzeSourceRoots is Analyze listing as a re-run after an edit does:
// the roots that only roots import without export data (load/split.go).
func AnalyzeSourceRoots(ctx context.Context, cfg *Config) (*Result, error) {
	c := *cfg
	c.sources = load.SourceRoots
	return Analyze(ctx, &c)
}

// AnalyzeUnbuilt is Analyze listing as a first run on a machine that has
// built nothing does: every package the go command has not built without
// export data (load.Unbuilt).
func AnalyzeUnbuilt(ctx context.Context, cfg *Config) (*Result, error) {
	c := *cfg
	c.sources = load.Unbuilt
	return Analyze(ctx, &c)
}
