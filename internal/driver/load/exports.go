package load

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// A dependency the go command has not built is type-checked from source
// (Unbuilt), and on a machine whose build cache stays empty (a CI runner
// starting from nothing, a build cache trimmed away) it would be every
// run. So a dependency type-checked from source leaves its export data in
// the directory Options.ExportDir names, and a later run decodes that
// instead, as it decodes the go command's.
//
// Only packages nobody edits are kept: those of the module cache,
// identified by module@version (the go command verifies its content), and
// of GOROOT, by the toolchain's version, with every package they import.
// A package of the workspace, vendored or replaced by a directory, is
// type-checked again: keying it by content would hash every file of the
// graph on every run, and such packages are few. The key adds the build
// configuration, the files the go command chose (tags, GOOS and cgo's
// output, by content) and the keys of the imports; the go/types and
// x/tools of this executable, which wrote the data and will read it,
// head the key, so a rebuilt ctrllint of the same versions keeps the
// cache. An entry is checked as a result cache entry is (entry.go): one
// that fails is type-checked again.

// exportMagic heads every entry: the format of its header, and the
// export data's, gcexportdata.Write's.
const exportMagic = "ctrllint-export v1"

// exports is a run's view of the export data directory, and the keys
// that say which packages nobody edits (immutable).
type exports struct {
	dir    string // "" when nothing is kept
	base   string // what every key shares
	places Places

	mu    sync.Mutex
	keys  map[*packages.Package]string // "" when not kept
	files map[string]string            // by ID, the entries found valid
	// frontier are the IDs of the packages whose export data a later run
	// decodes (keepFor): what put keeps.
	frontier map[string]bool
}

// exportEnv is what of the go command's environment the export data
// depends on, beside the files it lists.
type exportEnv struct {
	GOROOT, GOMODCACHE, GOVERSION, GOOS, GOARCH, CGO_ENABLED, GOEXPERIMENT string
}

// openExports returns the export data directory of opts, keeping nothing
// when opts name none or this executable cannot say which go/types it
// holds; nil when the go command's environment cannot be read.
func openExports(ctx context.Context, opts *Options) *exports {
	dir, tools := opts.ExportDir, typesID()
	if tools == "" {
		dir = ""
	}
	var env exportEnv
	if GoEnv(ctx, opts, &env, "GOROOT", "GOMODCACHE", "GOVERSION", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT") != nil {
		return nil
	}
	h := sha256.New()
	envJSON, _ := json.Marshal(env)
	// This process's GODEBUG changes how go/types checks (gotypesalias).
	fmt.Fprintf(h, "%s\ntypes %s\nenv %s\nGODEBUG %q\n", exportMagic, tools, envJSON, os.Getenv("GODEBUG"))
	return &exports{
		dir:    dir,
		base:   hex.EncodeToString(h.Sum(nil)),
		places: Places{GOROOT: env.GOROOT, GOMODCACHE: env.GOMODCACHE},
		keys:   make(map[*packages.Package]string),
		files:  make(map[string]string),
	}
}

// typesID identifies the go/types and x/tools this executable was built
// with, which write and read the export data: their versions, or, when
// the build does not record them (a test binary, x/tools replaced by a
// directory), the executable's content. "" if neither can be told.
var typesID = sync.OnceValue(func() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "golang.org/x/tools" && m.Replace == nil {
				return runtime.Version() + " x/tools " + m.Version
			}
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	sum, err := HashFile(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("executable %x", sum)
})

// key returns p's key, "" when p's export data is not kept. Called with
// mu held.
func (x *exports) key(p *packages.Package) string {
	if k, ok := x.keys[p]; ok {
		return k
	}
	x.keys[p] = "" // the go command reports an import cycle
	h := sha256.New()
	fmt.Fprintf(h, "%s\npackage %s %s\n", x.base, p.ID, p.Name)
	switch {
	case p.ForTest != "" || len(p.Errors) > 0:
		return ""
	case x.places.InModCache(p):
		m := p.Module
		if m.Replace != nil {
			m = m.Replace
		}
		fmt.Fprintf(h, "module %s@%s\n", m.Path, m.Version)
	case x.places.InGoroot(p):
		fmt.Fprintf(h, "goroot\n")
	default:
		return ""
	}
	for _, f := range p.GoFiles {
		fmt.Fprintf(h, "file %s\n", filepath.Base(f))
	}
	for _, f := range p.CompiledGoFiles {
		// cgo's output, outside the module, depends on the C toolchain
		// and headers too: by content.
		if !slices.Contains(p.GoFiles, f) {
			sum, err := HashFile(f)
			if err != nil {
				return ""
			}
			fmt.Fprintf(h, "compiled %s %x\n", filepath.Base(f), sum)
		}
	}
	for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
		imp := p.Imports[path]
		if imp.PkgPath == "unsafe" {
			continue
		}
		k := x.key(imp)
		if k == "" {
			return ""
		}
		fmt.Fprintf(h, "import %s %s\n", path, k)
	}
	k := hex.EncodeToString(h.Sum(nil))
	x.keys[p] = k
	return k
}

// lockedKey is key, taking mu.
func (x *exports) lockedKey(p *packages.Package) string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.key(p)
}

// immutable reports whether p is a package nobody edits, with every
// package it imports: one of the module cache or GOROOT.
func (x *exports) immutable(p *packages.Package) bool {
	return x != nil && x.lockedKey(p) != ""
}

// path is where the entry of a key is.
func (x *exports) path(key string) string {
	return filepath.Join(x.dir, key[:2], key+".export")
}

// has reports whether p's export data is in the directory and intact,
// remembering its file for p (file).
func (x *exports) has(p *packages.Package) bool {
	if x == nil || x.dir == "" {
		return false
	}
	k := x.lockedKey(p)
	if k == "" {
		return false
	}
	name := x.path(k)
	if _, err := readEntry(name); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			os.Remove(name) // for put to write again
		}
		return false
	}
	x.touch(name)
	x.mu.Lock()
	x.files[p.ID] = name
	x.mu.Unlock()
	return true
}

// file returns the entry has found for p, "" if none.
func (x *exports) file(p *packages.Package) string {
	if x == nil {
		return ""
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.files[p.ID]
}

// keepFor decides which packages put keeps: those a later run over roots
// decodes rather than type-checks, the imports of the packages it
// type-checks whatever is kept (the roots, and the packages of their
// modules they import, directly or through others of those: sourceOf)
// and the packages of whole. The data of each holds what it
// mentions of the packages below it, which a later run then needs no data
// of its own for: writing every dependency's took most of a first run's
// time (docs/performance.md).
func (x *exports) keepFor(roots []*packages.Package, whole []string) {
	if x == nil {
		return
	}
	analysed := AnalysedModules(roots)
	frontier := make(map[string]bool)
	checked := make(map[string]bool)
	var check func(p *packages.Package)
	check = func(p *packages.Package) {
		if checked[p.ID] {
			return
		}
		checked[p.ID] = true
		for _, imp := range p.Imports {
			frontier[imp.ID] = true
			if imp.Module != nil && analysed[imp.Module.Path] {
				check(imp)
			}
		}
	}
	for _, r := range roots {
		check(r)
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if slices.Contains(whole, p.PkgPath) {
			frontier[p.ID] = true
		}
	})
	x.mu.Lock()
	x.frontier = frontier
	x.mu.Unlock()
}

// put writes t's export data as p's, when p's is kept (key, keepFor); a
// failure to write only costs a later run the type-check.
func (x *exports) put(p *packages.Package, fset *token.FileSet, t *types.Package) {
	if x == nil || x.dir == "" {
		return
	}
	x.mu.Lock()
	k := ""
	if x.frontier[p.ID] {
		k = x.key(p)
	}
	x.mu.Unlock()
	if k == "" {
		return
	}
	name := x.path(k)
	if _, err := os.Stat(name); err == nil {
		return // another run's, which has found it intact or will
	}
	var payload bytes.Buffer
	if gcexportdata.Write(&payload, fset, t) != nil {
		return
	}
	WriteAtomically(name, SealEntry(exportMagic, EntryName(name), payload.Bytes()))
}

// readEntry returns the export data of the entry file name, failing when
// it is not intact (OpenEntry).
func readEntry(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return OpenEntry(data, exportMagic, EntryName(name))
}

// isEntry reports whether data is (or claims to be) one of our entries
// rather than the go command's export data.
func isEntry(data []byte) bool { return bytes.HasPrefix(data, []byte(exportMagic+" ")) }

// The directory is trimmed as the go command trims its build cache: an
// entry no run has used for trimAfter is deleted, by the first run after
// trimEvery since the last trim. A run that uses an entry marks it used
// by its modification time, at most once per touchEvery, so that a warm
// run does not write to every entry. The result cache's entries are kept
// the same way (Touch, Trim).
const (
	trimAfter  = 5 * 24 * time.Hour
	trimEvery  = 24 * time.Hour
	touchEvery = time.Hour
)

// touch marks the entry name used now.
func (x *exports) touch(name string) { Touch(name) }

// trim deletes the entries, temporary files and marks (rememberUnbuilt)
// that have not been used for trimAfter, unless the directory was trimmed
// less than trimEvery before now.
func (x *exports) trim(now time.Time) {
	if x == nil || x.dir == "" {
		return
	}
	Trim(x.dir, now)
}

// Touch marks the cache file name used now (its modification time), at
// most once per touchEvery.
func Touch(name string) {
	now := time.Now()
	if st, err := os.Stat(name); err == nil && now.Sub(st.ModTime()) > touchEvery {
		os.Chtimes(name, now, now)
	}
}

// Trim deletes the files under the cache directory dir that no run has
// used (Touch) for trimAfter, unless dir was trimmed less than trimEvery
// before now.
func Trim(dir string, now time.Time) {
	mark := filepath.Join(dir, "trim.txt")
	if st, err := os.Stat(mark); err == nil && now.Sub(st.ModTime()) < trimEvery {
		return
	}
	if _, err := os.Stat(dir); err != nil {
		return // nothing to trim, and no mark to leave
	}
	// Claimed first: two runs starting together do not both walk it.
	WriteAtomically(mark, []byte(now.UTC().Format(time.RFC3339)+"\n"))
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == mark {
			return nil
		}
		if info, err := d.Info(); err == nil && now.Sub(info.ModTime()) > trimAfter {
			os.Remove(path)
		}
		return nil
	})
}
