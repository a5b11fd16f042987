package load

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// What is on disk and may change under a run, and what may not: the
// result cache keys packages by it (resultcache) and the editor server
// keeps a load while it holds (Stamps).

// GoEnv asks the go command, as opts run it, for the variables named,
// and decodes them into env (a struct with fields of their names, or a
// map).
func GoEnv(ctx context.Context, opts *Options, env any, names ...string) error {
	cmd := exec.CommandContext(ctx, "go", append([]string{"env", "-json"}, names...)...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go env: %v", err)
	}
	if err := json.Unmarshal(out, env); err != nil {
		return fmt.Errorf("go env: %v", err)
	}
	return nil
}

// Places are where the go command keeps packages nobody edits: GOROOT,
// and the module cache, whose content it verifies.
type Places struct {
	GOROOT, GOMODCACHE string
}

// InModCache reports whether p is a module's package from the module
// cache (not a module replaced by a directory).
func (pl Places) InModCache(p *packages.Package) bool {
	m := p.Module
	if m == nil || m.Version == "" || m.Replace != nil && m.Replace.Version == "" || pl.GOMODCACHE == "" {
		return false
	}
	return allUnder(p.GoFiles, pl.GOMODCACHE)
}

// InGoroot reports whether p is a standard library package.
func (pl Places) InGoroot(p *packages.Package) bool {
	if p.Module != nil || pl.GOROOT == "" {
		return false
	}
	return allUnder(p.GoFiles, pl.GOROOT)
}

func allUnder(files []string, dir string) bool {
	for _, f := range files {
		if !strings.HasPrefix(f, dir+string(filepath.Separator)) {
			return false
		}
	}
	return len(files) > 0
}

// mtimeSlack is how long before a run a modification must be for the file
// to count as unchanged since: the kernel stamps files from a clock that
// lags the one time.Now reads by up to a scheduler tick, and a file system
// whose times have no fraction of a second may round a later write down to
// the whole second.
const (
	mtimeSlack       = 50 * time.Millisecond
	coarseMtimeSlack = 2 * time.Second
)

// Settled reports whether a file last modified at mt was, at start, as it
// is now for certain: a file modified just before a run may have been
// read half written, or its change not yet seen.
func Settled(mt, start time.Time) bool {
	slack := mtimeSlack
	if mt.Nanosecond() == 0 {
		slack = coarseMtimeSlack
	}
	return mt.Before(start.Add(-slack))
}

// SettleWrites waits until the files just written, of which probe is
// one, count as settled for a run that starts after it returns: a run
// started at once takes the last of them for half written, and neither
// looks up nor stores the results of the packages that hold them.
func SettleWrites(probe string) {
	slack := mtimeSlack
	if st, err := os.Stat(probe); err != nil || st.ModTime().Nanosecond() == 0 {
		slack = coarseMtimeSlack
	}
	time.Sleep(slack + time.Millisecond)
}

// HashFile returns the SHA-256 of a file's content.
func HashFile(name string) (FileHash, error) {
	f, err := os.Open(name)
	if err != nil {
		return FileHash{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return FileHash{}, err
	}
	var sum FileHash
	h.Sum(sum[:0])
	return sum, nil
}

// WriteAtomically writes data to name through a temporary file, so that
// a reader sees the whole of it or nothing. Caches call it: a failure only
// costs a later run time, so none is reported.
func WriteAtomically(name string, data []byte) {
	if os.MkdirAll(filepath.Dir(name), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), name) != nil {
		os.Remove(tmp.Name())
	}
}
