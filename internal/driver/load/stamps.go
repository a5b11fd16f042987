package load

import (
	"context"
	"crypto/sha256"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// Stamps say whether what a load read on disk, other than the roots' own
// files, is still what it was: the go.mod, go.sum and go.work files, the
// files of every dependency outside the module cache and GOROOT (whose
// content the go command verifies and never changes), and which files the
// roots' directories hold. Recheck reads the roots' files again itself.
// A dependency's embedded files are not stamped: they change what it
// compiles to, not its types.
//
// A file counts as unchanged while its size and modification time are,
// as for gopls and make: a tool that rewrites a file keeping both (rsync
// -t of a same-sized edit) is not seen.
type Stamps struct {
	files  map[string]stamp
	absent []string            // files that must not appear
	dirs   map[string][]string // root directory → the names it held
	// deps are the directories of the dependencies stamped (those
	// outside the module cache and GOROOT), and overlay the hash of each
	// overlay file in one of them as the load read it: an editor's unsaved
	// text of a package this one imports.
	deps    map[string]bool
	overlay map[string]FileHash
}

type stamp struct {
	size  int64
	mtime time.Time
	dir   bool
}

// Stamp stamps what the graph below roots, which Packages returned for a
// load with opts that started at loaded, was read from. It returns nil
// when it cannot tell (a file changed since the load may have started,
// the roots' directories hold files the load did not list): only a new
// load can say what the packages are then.
func Stamp(ctx context.Context, opts *Options, roots []*packages.Package, loaded time.Time) (*Stamps, error) {
	var env struct{ GOROOT, GOMODCACHE, GOWORK string }
	if err := GoEnv(ctx, opts, &env, "GOROOT", "GOMODCACHE", "GOWORK"); err != nil {
		return nil, err
	}
	places := Places{GOROOT: env.GOROOT, GOMODCACHE: env.GOMODCACHE}
	s := &Stamps{files: make(map[string]stamp), dirs: make(map[string][]string), deps: make(map[string]bool), overlay: make(map[string]FileHash)}
	var paths []string
	add := func(files ...string) {
		for _, f := range files {
			if f != "" {
				paths = append(paths, f)
			}
		}
	}
	isRoot := make(map[string]bool)
	for _, r := range roots {
		isRoot[r.ID] = true
		if r.Module != nil && r.Module.GoMod != "" {
			add(r.Module.GoMod, filepath.Join(filepath.Dir(r.Module.GoMod), "go.sum"))
		}
	}
	if w := env.GOWORK; w != "" && w != "off" {
		add(w, w+".sum")
	} else if w == "" {
		// A go.work created above the module would change what the go
		// command lists: its absence is stamped too.
		for d := opts.Base(); ; d = filepath.Dir(d) {
			s.absent = append(s.absent, filepath.Join(d, "go.work"))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, r := range roots {
		if len(r.GoFiles) == 0 {
			return nil, nil
		}
		dir := filepath.Dir(r.GoFiles[0])
		if _, ok := s.dirs[dir]; !ok {
			s.dirs[dir] = nil
		}
	}
	// Packages' roots import the packages of its listing, files included.
	packages.Visit(roots, nil, func(p *packages.Package) {
		if isRoot[p.ID] || isTestMain(p) || places.InModCache(p) || places.InGoroot(p) {
			return // Recheck reads a root's files; the others are the go command's
		}
		if len(p.GoFiles) > 0 {
			if _, ok := s.dirs[filepath.Dir(p.GoFiles[0])]; ok {
				return // a root's directory, whose files Recheck reads
			}
		}
		add(p.GoFiles...)
		add(p.OtherFiles...)
		add(p.IgnoredFiles...)
		if len(p.GoFiles) > 0 {
			dir := filepath.Dir(p.GoFiles[0])
			add(dir)
			s.deps[dir] = true
		}
	})
	s.overlay = s.depOverlay(opts.Overlay)
	for _, path := range paths {
		st, err := statOf(path)
		if os.IsNotExist(err) && strings.HasSuffix(path, ".sum") {
			// A module without requirements has none; one written
			// later comes with new requirements.
			s.absent = append(s.absent, path)
			continue
		}
		if err != nil || !Settled(st.mtime, loaded) {
			return nil, nil
		}
		s.files[path] = st
	}
	known := make(map[string]bool)
	for _, r := range roots {
		for _, list := range [][]string{r.GoFiles, r.OtherFiles, r.IgnoredFiles, r.EmbedFiles} {
			for _, f := range list {
				known[filepath.Base(f)] = true
			}
		}
	}
	for dir := range s.dirs {
		names, err := sourceNames(dir)
		if err != nil {
			return nil, nil
		}
		for _, n := range names {
			if !known[n] && (opts.Tests || !strings.HasSuffix(n, "_test.go")) {
				return nil, nil // added since the load listed the directory
			}
		}
		s.dirs[dir] = names
	}
	return s, nil
}

// depOverlay hashes the files of overlay in the dependencies' directories.
func (s *Stamps) depOverlay(overlay map[string][]byte) map[string]FileHash {
	out := make(map[string]FileHash)
	for path, text := range overlay {
		if s.deps[filepath.Dir(path)] {
			out[path] = sha256.Sum256(text)
		}
	}
	return out
}

// DependsOn reports whether the package in dir, outside the module cache
// and GOROOT, is among the dependencies stamped.
func (s *Stamps) DependsOn(dir string) bool { return s.deps[dir] }

// Unchanged reports whether every file stamped is as it was, the roots'
// directories hold the same files, and overlay, the editor's unsaved texts
// now, has for the dependencies' files what the load's had.
func (s *Stamps) Unchanged(overlay map[string][]byte) bool {
	if !maps.Equal(s.depOverlay(overlay), s.overlay) {
		return false
	}
	for path, want := range s.files {
		if got, err := statOf(path); err != nil || got != want {
			return false
		}
	}
	for dir, want := range s.dirs {
		if got, err := sourceNames(dir); err != nil || !slices.Equal(got, want) {
			return false
		}
	}
	for _, path := range s.absent {
		if _, err := os.Lstat(path); !os.IsNotExist(err) {
			return false
		}
	}
	return true
}

func statOf(path string) (stamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{}, err
	}
	st := stamp{mtime: fi.ModTime(), dir: fi.IsDir()}
	if !fi.IsDir() {
		st.size = fi.Size()
	}
	return st, nil
}

// sourceNames lists the files in dir that the go command may make part
// of a package: Go, assembly, C and the like, and object files.
func sourceNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		switch filepath.Ext(e.Name()) {
		case ".go", ".s", ".S", ".sx", ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx",
			".m", ".f", ".F", ".for", ".f90", ".swig", ".swigcxx", ".syso":
			names = append(names, e.Name())
		}
	}
	return names, nil // ReadDir sorts them
}
