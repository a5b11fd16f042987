package plugin

import (
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// excluding returns copies of as whose diagnostics in files that s's
// exclude-paths match are dropped; as itself when there are none. A path
// is matched relative to the root of the file's module, which the plugin
// can find on its own (golangci-lint tells a plugin neither its
// configuration's directory nor its working directory's meaning).
func excluding(as []*analysis.Analyzer, s Settings) []*analysis.Analyzer {
	if len(s.ExcludePaths) == 0 {
		return as
	}
	roots := &moduleRoots{dirs: make(map[string]string)}
	out := make([]*analysis.Analyzer, len(as))
	for i, a := range as {
		run := a.Run
		c := *a
		c.Run = func(pass *analysis.Pass) (any, error) {
			p := *pass
			p.Report = func(d analysis.Diagnostic) {
				file := pass.Fset.Position(d.Pos).Filename
				if !s.Excluded(roots.rel(file)) {
					pass.Report(d)
				}
			}
			return run(&p)
		}
		out[i] = &c
	}
	return out
}

// moduleRoots finds and remembers the module root of each directory; the
// analyzers run in parallel.
type moduleRoots struct {
	mu   sync.Mutex
	dirs map[string]string // directory -> module root, "" for none
}

// rel is file's path relative to its module's root, slash-separated, as
// exclude-paths see it; the absolute path if no go.mod is above it.
func (m *moduleRoots) rel(file string) string {
	root := m.root(filepath.Dir(file))
	if root == "" {
		return filepath.ToSlash(file)
	}
	r, err := filepath.Rel(root, file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	return filepath.ToSlash(r)
}

func (m *moduleRoots) root(dir string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var seen []string
	root := ""
	for d := dir; ; {
		if r, ok := m.dirs[d]; ok {
			root = r
			break
		}
		seen = append(seen, d)
		if st, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !st.IsDir() {
			root = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	for _, d := range seen {
		m.dirs[d] = root
	}
	return root
}
