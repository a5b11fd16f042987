package goplsproxy

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/mod/semver"
)

// Find returns the gopls to start, looked for as VS Code's Go extension
// looks for its tools: in GOBIN, in the bin directory of each GOPATH
// entry, in GOROOT's bin, then on PATH; GOBIN, GOPATH and GOROOT are the
// go command's (go env: the environment, or go env -w), or the
// environment's when there is no go command. Last, if cache is not "",
// the gopls builds that make gopls keeps there, newest first: a
// clone's make gopls is then all an editor set-up needs. self, if not "",
// is this executable: a candidate that is the same file is skipped, so
// that a ctrllint installed as gopls does not start itself.
func Find(self, cache string) (string, error) {
	name := "gopls"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	gobin, gopath, goroot := os.Getenv("GOBIN"), os.Getenv("GOPATH"), os.Getenv("GOROOT")
	if out, err := exec.Command("go", "env", "GOBIN", "GOPATH", "GOROOT").Output(); err == nil {
		if lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n"); len(lines) == 3 {
			gobin, gopath, goroot = lines[0], lines[1], lines[2]
		}
	}
	var dirs []string
	if gobin != "" {
		dirs = append(dirs, gobin)
	}
	for _, p := range filepath.SplitList(gopath) {
		if p != "" {
			dirs = append(dirs, filepath.Join(p, "bin"))
		}
	}
	if goroot != "" {
		dirs = append(dirs, filepath.Join(goroot, "bin"))
	}
	dirs = append(dirs, filepath.SplitList(os.Getenv("PATH"))...)
	dirs = append(dirs, built(cache)...)
	var me os.FileInfo
	if self != "" {
		me, _ = os.Stat(self)
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		path := filepath.Join(d, name)
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 && runtime.GOOS != "windows" {
			continue
		}
		if me != nil && os.SameFile(me, fi) {
			continue
		}
		return path, nil
	}
	where := "GOBIN, GOPATH/bin, GOROOT/bin or PATH"
	if cache != "" {
		where = "GOBIN, GOPATH/bin, GOROOT/bin, PATH or " + filepath.Join(cache, "gopls-<version>")
	}
	return "", fmt.Errorf("no gopls in %s (go install golang.org/x/tools/gopls@latest installs one; make gopls in a clone of ctrllint builds the one it is tested with; -gopls names one)", where)
}

// built returns the directories under cache in which make gopls
// (hack/gopls/build.sh) built a gopls, cache/gopls-<version>, newest
// version first; nil for "" or none. Versions compare as semantic
// versions: v0.23.0 is newer than v0.9.0.
func built(cache string) []string {
	if cache == "" {
		return nil
	}
	version := func(d string) string { return strings.TrimPrefix(filepath.Base(d), "gopls-") }
	// Read, not globbed: the cache's path may hold glob metacharacters.
	entries, _ := os.ReadDir(cache)
	var dirs []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "gopls-") && semver.IsValid(version(e.Name())) {
			dirs = append(dirs, filepath.Join(cache, e.Name()))
		}
	}
	slices.SortFunc(dirs, func(a, b string) int { return semver.Compare(version(b), version(a)) })
	return dirs
}

// goplsValueFlags are gopls's flags that take a value, which may come as
// the next argument.
var goplsValueFlags = map[string]bool{
	"logfile": true, "mode": true, "remote": true, "port": true, "listen": true, "debug": true, "ocagent": true,
	"listen.timeout": true, "remote.debug": true, "remote.listen.timeout": true, "remote.logfile": true,
	"profile.alloc": true, "profile.block": true, "profile.cpu": true, "profile.mem": true, "profile.trace": true,
}

// Serves reports whether gopls run with args serves the LSP on standard
// input and output (no subcommand, or serve), which is what is proxied;
// another subcommand (gopls version, which editors run to learn the
// version, check, help...) runs as it is.
func Serves(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return i+1 == len(args) || args[i+1] == "serve"
		}
		if !strings.HasPrefix(a, "-") {
			return a == "serve"
		}
		name := strings.TrimLeft(a, "-")
		if name == "h" || name == "help" {
			return false
		}
		if !strings.Contains(name, "=") && goplsValueFlags[name] {
			i++ // its value
		}
	}
	return true
}
