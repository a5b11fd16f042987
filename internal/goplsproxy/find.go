package goplsproxy

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Find returns the gopls to start, looked for as VS Code's Go extension
// looks for its tools: in GOBIN, in the bin directory of each GOPATH
// entry, in GOROOT's bin, then on PATH. GOBIN, GOPATH and GOROOT are the
// go command's (go env: the environment, or go env -w), or the
// environment's when there is no go command. self, if not "", is this
// executable: a candidate that is the same file is skipped, so that a
// ctrllint installed as gopls does not start itself.
func Find(self string) (string, error) {
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
	return "", errors.New("no gopls in GOBIN, GOPATH/bin, GOROOT/bin or PATH (go install golang.org/x/tools/gopls@latest installs it; -gopls names one)")
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
