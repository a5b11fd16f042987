package driver

import (
	"context"
	"slices"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver/load"
)

// Loaded is the editor server's memory of a package between runs: the
// packages of its last load, and what that load read on disk, so that
// the next run after an edit of the package's own files type-checks them
// again over the dependencies' types it decoded instead of running the go
// command (load.Recheck).
type Loaded struct {
	cfg    Config // what was loaded: Dir, Patterns, Tags, Tests, Env, WholePackages
	pkgs   []*packages.Package
	stamps *load.Stamps
	// reloads counts the rechecks: each adds the package's files to the
	// load's file set, which the dependencies' positions live in and
	// which never shrinks, so after maxReloads a load starts afresh.
	reloads int
}

// maxReloads bounds what the file set holds of old texts (a line table
// per file and recheck: some megabytes for a large package).
const maxReloads = 256

// Keep stamps what pkgs, which Load returned without an error for cfg in
// a run that started at started, were loaded from. It returns nil when
// it cannot tell whether the disk has changed since (a file changed as
// the load ran): the next run loads.
func Keep(ctx context.Context, cfg *Config, pkgs []*packages.Package, started time.Time) (*Loaded, error) {
	stamps, err := load.Stamp(ctx, cfg.loadOptions(), pkgs, started)
	if err != nil || stamps == nil {
		return nil, err
	}
	return &Loaded{cfg: *cfg, pkgs: pkgs, stamps: stamps}, nil
}

// Reload is Load for cfg, cfg.Overlay included, from what prev kept,
// when nothing but the text of the roots' own files has changed since,
// and the change leaves what the go command would list of them as it
// was: the packages that type-check, and a *LoadError for the others.
// Otherwise ok is false, and only Load can say what the packages are.
// Packages without errors are prev's from then on.
func Reload(cfg *Config, prev *Loaded) (pkgs []*packages.Package, err error, ok bool) {
	if prev == nil || prev.reloads >= maxReloads || !prev.cfg.sameLoad(cfg) || !prev.stamps.Unchanged(cfg.Overlay) {
		return nil, nil, false
	}
	prev.reloads++
	pkgs, lerr, ok := load.Recheck(prev.pkgs, cfg.Overlay, cfg.loadOptions().Base())
	if !ok {
		return nil, nil, false
	}
	if lerr != nil {
		return pkgs, lerr, true
	}
	prev.pkgs = pkgs
	return pkgs, nil, true
}

// DependsOn reports whether the package in dir, one the user may edit
// (outside the module cache and GOROOT), is a dependency of what prev
// loaded: its unsaved text changes what the packages are.
func (prev *Loaded) DependsOn(dir string) bool { return prev.stamps.DependsOn(dir) }

// sameLoad reports whether a load for cfg lists what one for c does,
// given the same files.
func (c *Config) sameLoad(cfg *Config) bool {
	return c.Dir == cfg.Dir && slices.Equal(c.Patterns, cfg.Patterns) && slices.Equal(c.Tags, cfg.Tags) &&
		c.Tests == cfg.Tests && slices.Equal(c.Env, cfg.Env) && slices.Equal(c.WholePackages, cfg.WholePackages)
}
