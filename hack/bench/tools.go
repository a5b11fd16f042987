package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// The tools compared, as rows of the report. A tool with a result cache of
// its own is measured twice per round: cold (that cache empty) then warm
// (run again at once, nothing changed). The go build cache is warm in both:
// the export data of dependencies is the go command's business, built once
// by the warm-up and shared by every tool.
const (
	toolFloor       = "floor"
	toolCtrllint    = "ctrllint"
	toolVet         = "go vet"
	toolVettool     = "go vet -vettool=ctrllint"
	toolStaticcheck = "staticcheck"
)

// allTools are the -tools names, in the order a round runs them.
var allTools = []string{"floor", "ctrllint", "vet", "vettool", "staticcheck"}

const (
	stateNone = ""     // the tool keeps nothing between runs
	stateCold = "cold" // the tool's own result cache is empty
	stateWarm = "warm" // the same command again at once: its cache is populated, nothing changed
)

// staticcheckModule is the staticcheck measured: the current release when
// this was written (2026.2.2). -staticcheck-version changes it.
const staticcheckVersion = "v0.8.2"

// installStaticcheck installs staticcheck at version into binDir (once)
// from the module proxy, and returns the binary's path.
func installStaticcheck(binDir, version string) (string, error) {
	dir := filepath.Join(binDir, "staticcheck@"+version)
	bin := filepath.Join(dir, "staticcheck")
	if exists(bin) {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "bench: installing honnef.co/go/tools/cmd/staticcheck@%s into %s\n", version, dir)
	cmd := exec.Command("go", "install", "honnef.co/go/tools/cmd/staticcheck@"+version)
	cmd.Dir = os.TempDir() // outside any module: the release's own go.mod decides
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install staticcheck@%s: %v\n%s", version, err, out)
	}
	return bin, nil
}

// buildFloor builds hack/bench/floor into dir and returns its path.
func buildFloor(dir string) (string, error) {
	bin := filepath.Join(dir, "floor")
	cmd := exec.Command("go", "build", "-o", bin, "./hack/bench/floor")
	cmd.Dir = repoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the floor: %v\n%s", err, out)
	}
	return bin, nil
}

// cacheSupport is how ctrllint's own result cache is controlled, as its
// -h output says: a flag, an environment variable, or neither (no cache).
type cacheSupport struct {
	Flag string // e.g. "cache": run with -cache=DIR
	Env  string // e.g. "CTRLLINT_CACHE": run with CTRLLINT_CACHE=DIR
}

func (c cacheSupport) String() string {
	switch {
	case c.Flag != "":
		return "-" + c.Flag + "=DIR"
	case c.Env != "":
		return c.Env + "=DIR"
	}
	return "none"
}

// detectCache reads ctrllint's usage (-h) for the flag or the environment
// variable; the flag wins when both are mentioned.
func detectCache(help, flagName, envName string) cacheSupport {
	var c cacheSupport
	// Only a flag that takes a value names a directory: the flag package
	// prints "-name value" for those and a bare "-name" for switches
	// (ctrllint's -cache turns its cache on and off; $CTRLLINT_CACHE is
	// where it is).
	if flagName != "" && regexp.MustCompile(`(?m)^\s*-`+regexp.QuoteMeta(flagName)+`[ \t]+\S`).MatchString(help) {
		c.Flag = flagName
	} else if envName != "" && strings.Contains(help, envName) {
		c.Env = envName
	}
	return c
}

// ctrllintHelp is the output of ctrllint -h (flag prints it to stderr).
func ctrllintHelp(bin string) string {
	var out bytes.Buffer
	cmd := exec.Command(bin, "-h")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Run()
	return out.String()
}

// toolVersion is the first line of `bin args...`.
func toolVersion(bin string, args ...string) string {
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}

// salt is a fresh random token.
func salt() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// saltedCopy copies the ctrllint binary to dir with a random trailer
// appended. The copy runs exactly as the original, but go vet keys its
// cache of vet results (Go 1.26 caches them, for dependencies and for the
// packages vetted) by the tool's ID, which for a development build is the
// hash of the executable's content (ctrllint -V=full): a fresh copy has
// nothing cached. That is how the -vettool mode is made cold without
// emptying the build cache.
func saltedCopy(bin, dir string) (string, error) {
	src, err := os.Open(bin)
	if err != nil {
		return "", err
	}
	defer src.Close()
	s := salt()
	path := filepath.Join(dir, "ctrllint-vettool-"+s)
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return "", err
	}
	if _, err := fmt.Fprintf(dst, "\nctrllint-bench-salt %s\n", s); err != nil {
		dst.Close()
		return "", err
	}
	return path, dst.Close()
}

// vetSaltFlag makes go vet's default analyzers cold: go vet keys cached vet
// results by the vet flags given, and a print-wrapper name that no function
// has changes the key without changing what vet reports. (Giving any vet
// flag also makes the go command pass the flags to the standard library's
// packages, which it otherwise vets with -unsafeptr=false; those are only
// analysed for facts, which unsafeptr does not produce.)
func vetSaltFlag(s string) string {
	return "-printf.funcs=ctrllintbenchsalt" + s
}
