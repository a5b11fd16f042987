// Package resultcache keeps analysis results per package, keyed by
// content. It lets a second run over unchanged code skip loading and
// analysing: what costs the time of a run is type-checking its packages
// and building their SSA form, while knowing that nothing changed takes
// one `go list -deps` without compiling.
//
// A root package's entry is keyed by everything its findings depend on:
// this executable, the analyzers and their flags, the build configuration
// (GOOS, GOARCH, tags, tests, the Go toolchain), the package's own files
// (by content) and, recursively, the keys of everything it imports. A
// dependency in the module cache is identified by module@version (the
// cache is immutable), one in GOROOT by the toolchain version; any other
// file by its content. Only clean results are stored: a package with load
// errors or an analyzer failure is analysed again next time, so its
// problem is reported again.
package resultcache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/lend"
)

// A Cache is one run's view of the cache directory. Its methods may be
// called concurrently.
type Cache struct {
	dir   string
	base  string    // tool, analyzers, flags and build configuration
	start time.Time // when the run began, before anything was listed
	env   goEnv

	mu         sync.Mutex                   // guards what follows, outside key
	keys       map[*packages.Package]string // content keys
	files      map[string]load.FileHash     // each file's hash as keyed
	mods       map[string]string            // go.mod settings by go.mod file (modSettings)
	settled    map[*packages.Package]bool   // unchanged since the run began, dependencies included
	brokenMemo map[*packages.Package]bool   // the package or a dependency has errors
}

type goEnv struct {
	GOROOT, GOVERSION, GOMODCACHE, GOOS, GOARCH, CGO_ENABLED, GOFLAGS, GOEXPERIMENT, GOWORK, GODEBUG string
}

func (e goEnv) places() load.Places { return load.Places{GOROOT: e.GOROOT, GOMODCACHE: e.GOMODCACHE} }

// entry is what is stored for one root package.
type entry struct {
	Findings []finding.Finding
	// Limits are the bounds reached while analysing the package: a warm
	// run's -v tells them as the cold run's did.
	Limits []lend.Limit
}

// Options say where the cache is and what every key of a run shares.
type Options struct {
	Dir       string        // the cache directory
	Load      *load.Options // the go command's directory, environment, tags and tests
	Analyzers []*analysis.Analyzer
	// SummaryImports decide which packages below the roots give their
	// facts (driver.Config's): the findings depend on them.
	SummaryImports []string
}

// Open computes what every key of the run shares. start is when the run
// began: files changed since are not trusted to be what was analysed. It
// runs `go env`, and fails when that does.
func Open(ctx context.Context, opts *Options, start time.Time) (*Cache, error) {
	env, err := readGoEnv(ctx, opts.Load)
	if err != nil {
		return nil, err
	}
	tool, err := toolID(opts.Dir)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "ctrllint result cache v4\ntool %s\n", tool)
	envJSON, _ := json.Marshal(env)
	fmt.Fprintf(h, "env %s\ntags %q\ntests %v\n", envJSON, opts.Load.Tags, opts.Load.Tests)
	// This process's own GODEBUG changes how go/types checks (gotypesalias
	// and kin), whatever the go command's is.
	fmt.Fprintf(h, "process GODEBUG %q\n", os.Getenv("GODEBUG"))
	if env.GOWORK != "" && env.GOWORK != "off" {
		settings, err := modSettings(env.GOWORK)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "go.work %s\n", settings)
	}
	fmt.Fprintf(h, "summary imports %q\n", opts.SummaryImports)
	for _, a := range sortedAnalyzers(opts.Analyzers) {
		fmt.Fprintf(h, "analyzer %s\n", a.Name)
		a.Flags.VisitAll(func(f *flag.Flag) { fmt.Fprintf(h, "  -%s=%s\n", f.Name, f.Value) })
	}
	// Entries of builds and packages no run has asked for in days go, as
	// the export data's do.
	load.Trim(filepath.Join(opts.Dir, "results"), time.Now())
	return &Cache{
		dir:        filepath.Join(opts.Dir, "results"),
		base:       hex.EncodeToString(h.Sum(nil)),
		start:      start,
		env:        env,
		keys:       make(map[*packages.Package]string),
		files:      make(map[string]load.FileHash),
		mods:       make(map[string]string),
		settled:    make(map[*packages.Package]bool),
		brokenMemo: make(map[*packages.Package]bool),
	}, nil
}

// Used reports whether some run with this executable, these analyzers and
// this build configuration stored results in the cache. When none did,
// every key misses, whatever the packages.
func (rc *Cache) Used() bool {
	_, err := os.Stat(rc.usedMark())
	if err == nil {
		load.Touch(rc.usedMark()) // a run that only reads keeps it too
	}
	return err == nil
}

// MarkUsed records that results were stored under the run's shared key,
// for later runs' Used.
func (rc *Cache) MarkUsed() {
	name := rc.usedMark()
	if os.MkdirAll(filepath.Dir(name), 0o755) == nil {
		os.WriteFile(name, nil, 0o644)
	}
}

func (rc *Cache) usedMark() string {
	return filepath.Join(rc.dir, "used", rc.base)
}

// Keyed reports whether p has a key, computing it (and its imports') the
// first time. p is a listed package: load.List's or load.ListForKeys'.
func (rc *Cache) Keyed(p *packages.Package) bool {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	_, err := rc.key(p)
	return err == nil
}

// Put stores findings as p's, keyed already, and reports whether it did.
// findings must be everything the analyzers reported on p, none of them
// having failed; parsed is the hash of each file as the analysis parsed it
// (load.Parse). Nothing is stored for a package whose listed graph has
// errors, or when what was analysed may not be what the key says.
//
// A key is computed from the files on disk, before the analysis (a used
// cache) or after it (an unused one), while the analysis saw the files as
// they were parsed and the dependencies as the go command compiled them
// when it listed. A file saved in between would have the findings of one
// content stored under the key of another: a later run would print them
// for code that no longer has them, or print nothing for code that does.
// So the root's files must hash as they did when parsed, and no file the
// key covers may have been modified since the run began.
func (rc *Cache) Put(p *packages.Package, findings []finding.Finding, limits []lend.Limit, parsed map[string]load.FileHash) bool {
	rc.mu.Lock()
	ok := !rc.broken(p) && rc.parsedAsKeyed(p, parsed) && rc.unchanged(p)
	rc.mu.Unlock()
	if !ok {
		return false
	}
	rc.put(p, entry{Findings: findings, Limits: limits})
	return true
}

// Get returns p's findings and the analysis limits reached in it, keyed
// already, if an entry holds them. One that is missing, or fails its
// integrity check (decodeEntry), is a miss: the package is analysed again
// and the entry rewritten.
func (rc *Cache) Get(p *packages.Package) ([]finding.Finding, []lend.Limit, bool) {
	e, ok := rc.get(p)
	return e.Findings, e.Limits, ok
}

// Hashes returns the hash of each Go file of p, keyed already, that its
// key covers: the content its cached findings were found in.
func (rc *Cache) Hashes(p *packages.Package) map[string]load.FileHash {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	m := make(map[string]load.FileHash, len(p.GoFiles))
	for _, f := range p.GoFiles {
		if h, ok := rc.files[f]; ok {
			m[f] = h
		}
	}
	return m
}

// parsedAsKeyed reports whether every file of p that the run parsed had
// the content its key was computed from.
func (rc *Cache) parsedAsKeyed(p *packages.Package, parsed map[string]load.FileHash) bool {
	for _, f := range p.GoFiles {
		h, ok := parsed[f]
		if !ok {
			continue // cgo's input (the analyzers saw its output) or the Load path's
		}
		if k, keyed := rc.files[f]; h == (load.FileHash{}) || keyed && k != h {
			return false
		}
	}
	return true
}

// unchanged reports whether no file that p's key covers, its module's
// go.mod included, was modified since the run began, or so shortly before
// that the file system's clock cannot tell (mtimeSlack).
func (rc *Cache) unchanged(p *packages.Package) bool {
	if b, ok := rc.settled[p]; ok {
		return b
	}
	rc.settled[p] = true // an import cycle is the go command's to report
	ok := true
	if !rc.inModCache(p) && !rc.inGoroot(p) {
		for _, f := range keyedFiles(p) {
			ok = ok && rc.before(f)
		}
		if p.Module != nil && p.Module.GoMod != "" {
			ok = ok && rc.before(p.Module.GoMod)
		}
	}
	for _, dep := range p.Imports {
		ok = rc.unchanged(dep) && ok
	}
	rc.settled[p] = ok
	return ok
}

func (rc *Cache) before(name string) bool {
	st, err := os.Stat(name)
	if err != nil {
		return false
	}
	return load.Settled(st.ModTime(), rc.start)
}

// keyedFiles are the files whose content a package's key covers.
func keyedFiles(p *packages.Package) []string {
	return slices.Concat(p.GoFiles, p.OtherFiles, p.EmbedFiles)
}

// broken reports whether p or any of its dependencies has errors,
// remembering the answer for every package it visits: the roots of a run
// share most of their graph. Called with mu held.
func (rc *Cache) broken(p *packages.Package) bool {
	if b, ok := rc.brokenMemo[p]; ok {
		return b
	}
	rc.brokenMemo[p] = false // an import cycle is reported by the go command, not found here
	b := len(p.Errors) > 0
	for _, imp := range p.Imports {
		b = rc.broken(imp) || b
	}
	rc.brokenMemo[p] = b
	return b
}

// key is the package's content key: its files and its imports' keys.
// Callers that may run concurrently hold rc.mu (keyed).
func (rc *Cache) key(p *packages.Package) (string, error) {
	if k, ok := rc.keys[p]; ok {
		return k, nil
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", p.ID, p.Name)
	if m := p.Module; m != nil && !rc.inModCache(p) {
		// The go line decides which language the type checker accepts;
		// toolchain and godebug lines go with it. A module-cache
		// dependency's go.mod is fixed by its version.
		settings, err := rc.moduleSettings(m)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "module %s go %s %s\n", m.Path, m.GoVersion, settings)
	}
	switch {
	case rc.inModCache(p):
		fmt.Fprintf(h, "module %s@%s\n", p.Module.Path, p.Module.Version)
		for _, f := range p.GoFiles {
			fmt.Fprintf(h, "file %s\n", filepath.Base(f))
		}
	case rc.inGoroot(p):
		fmt.Fprintf(h, "goroot %s\n", rc.env.GOVERSION)
		for _, f := range p.GoFiles {
			fmt.Fprintf(h, "file %s\n", filepath.Base(f))
		}
	default:
		for _, f := range keyedFiles(p) {
			fh, err := rc.hashFile(f)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "file %s %x\n", f, fh)
		}
	}
	imps := make([]string, 0, len(p.Imports))
	for path, dep := range p.Imports {
		// A standard library package is the toolchain's, in the base
		// key already. Leaving them out also keeps the key the same
		// whether the listing is of the files as written or as compiled
		// (the streaming path's, see analyzeUnused), which adds cgo's
		// runtime/cgo, syscall and unsafe to a cgo package's imports.
		if !rc.inGoroot(dep) && dep.PkgPath != "unsafe" {
			imps = append(imps, path)
		}
	}
	sort.Strings(imps)
	for _, path := range imps {
		k, err := rc.key(p.Imports[path])
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "import %s %s\n", path, k)
	}
	k := hex.EncodeToString(h.Sum(nil))
	rc.keys[p] = k
	return k, nil
}

func (rc *Cache) inModCache(p *packages.Package) bool { return rc.env.places().InModCache(p) }
func (rc *Cache) inGoroot(p *packages.Package) bool   { return rc.env.places().InGoroot(p) }

// hashFile returns the hash of a file's content, the same for every key
// of the run that covers the file.
func (rc *Cache) hashFile(name string) (load.FileHash, error) {
	if h, ok := rc.files[name]; ok {
		return h, nil
	}
	fh, err := load.HashFile(name)
	if err != nil {
		return load.FileHash{}, err
	}
	rc.files[name] = fh
	return fh, nil
}

// moduleSettings returns the lines of a module's go.mod that change how
// its packages type-check, remembered for the run.
func (rc *Cache) moduleSettings(m *packages.Module) (string, error) {
	if m.GoMod == "" {
		return "", nil
	}
	if s, ok := rc.mods[m.GoMod]; ok {
		return s, nil
	}
	s, err := modSettings(m.GoMod)
	if err != nil {
		return "", err
	}
	rc.mods[m.GoMod] = s
	return s, nil
}

// modSettings reads the go, toolchain and godebug lines of a go.mod or
// go.work file. Its requirements are not among them: they change the
// dependencies' keys, which a package's key covers.
func modSettings(name string) (string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if strings.HasSuffix(name, ".work") {
		wf, err := modfile.ParseWork(name, data, nil)
		if err != nil {
			return "", err
		}
		settingsOf(&b, wf.Go, wf.Toolchain, wf.Godebug)
	} else {
		mf, err := modfile.Parse(name, data, nil)
		if err != nil {
			return "", err
		}
		settingsOf(&b, mf.Go, mf.Toolchain, mf.Godebug)
	}
	return b.String(), nil
}

func settingsOf(b *strings.Builder, g *modfile.Go, tc *modfile.Toolchain, debug []*modfile.Godebug) {
	if g != nil {
		fmt.Fprintf(b, "go=%s ", g.Version)
	}
	if tc != nil {
		fmt.Fprintf(b, "toolchain=%s ", tc.Name)
	}
	for _, d := range debug {
		fmt.Fprintf(b, "godebug %s=%s ", d.Key, d.Value)
	}
}

func (rc *Cache) path(p *packages.Package) string {
	rc.mu.Lock()
	key := rc.keys[p]
	rc.mu.Unlock()
	sum := sha256.Sum256([]byte(rc.base + key))
	k := hex.EncodeToString(sum[:])
	return filepath.Join(rc.dir, k[:2], k+".json")
}

func (rc *Cache) get(p *packages.Package) (entry, bool) {
	name := rc.path(p)
	data, err := os.ReadFile(name)
	if err != nil {
		return entry{}, false
	}
	e, err := decodeEntry(data, entryID(name))
	if err != nil {
		return entry{}, false
	}
	load.Touch(name)
	return e, true
}

// put stores an entry; a failure to write only costs the next run time.
func (rc *Cache) put(p *packages.Package, e entry) {
	name := rc.path(p)
	data, err := encodeEntry(e, entryID(name))
	if err != nil {
		return
	}
	load.WriteAtomically(name, data)
}

// readGoEnv asks the go command for what decides how packages build.
func readGoEnv(ctx context.Context, opts *load.Options) (goEnv, error) {
	var env goEnv
	err := load.GoEnv(ctx, opts, &env, "GOROOT", "GOVERSION", "GOMODCACHE", "GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOEXPERIMENT", "GOWORK", "GODEBUG")
	return env, err
}

var toolIDOnce struct {
	sync.Once
	id  string
	err error
}

// Known reports whether this executable has been identified in the cache
// directory (toolID) by an earlier run: if not, no run of it used the
// cache, and nothing there can be for this run. A build not seen by its
// path, size and modification time may be the same build installed again
// (CI installs one version on every fresh runner, then restores the cache
// of the last run): it is known by the hash of its contents, which costs
// one read of the executable, and only then.
func Known(cacheDir string) bool {
	exe, memo, err := toolMemo(cacheDir)
	if err != nil {
		return true // toolID will fail the same way, and say so
	}
	if _, err = os.Stat(memo); err == nil {
		return true
	}
	if _, err := os.Stat(filepath.Dir(memo)); err != nil {
		return false // no run used this directory: nothing to read the executable for
	}
	id, err := exeID(exe, memo)
	if err != nil {
		return true
	}
	_, err = os.Stat(idMark(cacheDir, id))
	return err == nil
}

// toolMemo returns the executable and where toolID remembers its hash,
// by its path, size and modification time.
func toolMemo(cacheDir string) (exe, memo string, err error) {
	exe, err = os.Executable()
	if err != nil {
		return "", "", err
	}
	st, err := os.Stat(exe)
	if err != nil {
		return "", "", err
	}
	stamp := fmt.Sprintf("%s %d %d %s/%s", exe, st.Size(), st.ModTime().UnixNano(), runtime.GOOS, runtime.GOARCH)
	sum := sha256.Sum256([]byte(stamp))
	return exe, filepath.Join(cacheDir, "tool", hex.EncodeToString(sum[:8])), nil
}

// idMark is the file that says a run of the executable whose contents
// hash to id used the cache directory, whatever its path and time.
func idMark(cacheDir, id string) string { return filepath.Join(cacheDir, "tool", "id-"+id) }

// exeID is the hash of the executable's contents, read from its memo
// when there is one; computed once per process.
func exeID(exe, memo string) (string, error) {
	toolIDOnce.Do(func() {
		if id, err := os.ReadFile(memo); err == nil && len(id) == 64 {
			toolIDOnce.id = string(id)
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			toolIDOnce.err = err
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			toolIDOnce.err = err
			return
		}
		toolIDOnce.id = hex.EncodeToString(h.Sum(nil))
	})
	return toolIDOnce.id, toolIDOnce.err
}

// toolID identifies this executable by the hash of its contents,
// remembered in the cache by path, size and modification time so that it
// is computed once per build, and by the hash itself (idMark).
func toolID(cacheDir string) (string, error) {
	exe, memo, err := toolMemo(cacheDir)
	if err != nil {
		return "", err
	}
	id, err := exeID(exe, memo)
	if err != nil {
		return "", err
	}
	// Remembered in every cache the process uses (the tests use many),
	// which Known relies on.
	for _, name := range []string{memo, idMark(cacheDir, id)} {
		if _, err := os.Stat(name); err != nil && os.MkdirAll(filepath.Dir(name), 0o755) == nil {
			os.WriteFile(name, []byte(id), 0o644)
		}
	}
	return id, nil
}

func sortedAnalyzers(as []*analysis.Analyzer) []*analysis.Analyzer {
	out := slices.Clone(as)
	slices.SortFunc(out, func(a, b *analysis.Analyzer) int { return strings.Compare(a.Name, b.Name) })
	return out
}
