// Package pinned materialises pinned releases of modules from the module
// proxy into wrapper modules outside the clone and runs ctrllint on them:
// what the corpus (hack/corpus) and the real-bug benchmark (hack/realbugs)
// share.
package pinned

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
)

// layoutVersion changes when materialise builds entries differently, so
// that entries built by an older corpus command are built again.
const layoutVersion = 5

// Materialise makes dir/<name>@<version> a module in which the entry's
// patterns load: a wrapper that requires the pinned module, with its go.sum
// filled by `go mod tidy` over a build-tagged file importing every matched
// package. It runs once per entry description and Go version (a stamp file
// records both), so a second `make corpus` goes straight to the analysis.
func Materialise(cache string, e Entry) (string, error) {
	dir := filepath.Join(cache, e.Name+"@"+e.Version)
	if e.Module == "" {
		dir = filepath.Join(cache, e.Name)
	}
	spec, _ := json.Marshal(e)
	sum := sha256.Sum256(fmt.Appendf(spec, "%s %d", runtime.Version(), layoutVersion))
	stamp := fmt.Sprintf("%x\n", sum[:8])
	stampFile := filepath.Join(dir, ".materialised")
	if old, err := os.ReadFile(stampFile); err == nil && string(old) == stamp {
		return dir, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var pinned *modfile.File
	var err error
	if e.Module != "" {
		if pinned, err = pinnedGoMod(e); err != nil {
			return "", err
		}
	}
	gomod, err := wrapperGoMod(e, pinned, goLangVersion())
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), gomod, 0o644); err != nil {
		return "", err
	}
	if err := writeStubs(dir, e.Stubs); err != nil {
		return "", err
	}
	if e.Module != "" {
		if _, err := GoCmd(dir, "mod", "download", e.Module); err != nil {
			return "", err
		}
		pkgs, err := listPackages(dir, e.Patterns, e.Exclude)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, PackagesFile), []byte(strings.Join(pkgs, "\n")+"\n"), 0o644); err != nil {
			return "", err
		}
		var b strings.Builder
		b.WriteString("//go:build corpus\n\n// Imports every analysed package so that go mod tidy records their modules.\n// It is never built (main packages cannot be imported).\npackage corpus\n\nimport (\n")
		for _, p := range pkgs {
			fmt.Fprintf(&b, "\t_ %q\n", p)
		}
		b.WriteString(")\n")
		if err := os.WriteFile(filepath.Join(dir, "imports.go"), []byte(b.String()), 0o644); err != nil {
			return "", err
		}
		// -e: tidy also wants what the packages' tests import, which
		// need not be on the proxy; what is analysed is checked next.
		if _, err := GoCmd(dir, "mod", "tidy", "-e"); err != nil {
			return "", err
		}
		if err := checkResolved(dir, pkgs); err != nil {
			return "", err
		}
	}
	return dir, os.WriteFile(stampFile, []byte(stamp), 0o644)
}

// pinnedGoMod reads the go.mod of the pinned module from the module cache.
func pinnedGoMod(e Entry) (*modfile.File, error) {
	out, err := GoCmd("", "mod", "download", "-json", e.Module+"@"+e.Version)
	if err != nil {
		return nil, err
	}
	var info struct{ GoMod string }
	if err := json.Unmarshal(out, &info); err != nil {
		return nil, fmt.Errorf("go mod download -json: %v", err)
	}
	data, err := os.ReadFile(info.GoMod)
	if err != nil {
		return nil, err
	}
	// Parse, not ParseLax: ParseLax drops replace directives.
	return modfile.Parse(info.GoMod, data, nil)
}

// wrapperGoMod requires the pinned module and carries over the replaces of
// its go.mod, which a dependency's go.mod cannot apply: module replaces as
// they are, ./staging replaces as the published k8s.io modules at the
// entry's staging version, other local replaces as the entry says (or not
// at all, leaving the required version). pinned is nil for the standard
// library.
func wrapperGoMod(e Entry, pinned *modfile.File, goVersion string) ([]byte, error) {
	f := new(modfile.File)
	f.AddModuleStmt("ctrllint.corpus/" + e.Name)
	f.AddGoStmt(goVersion)
	if pinned == nil {
		return f.Format()
	}
	f.AddNewRequire(e.Module, e.Version, false)
	if pinned.Go != nil && gt(pinned.Go.Version, f.Go.Version) {
		f.AddGoStmt(pinned.Go.Version)
	}
	for _, r := range pinned.Replace {
		local := modfile.IsDirectoryPath(r.New.Path)
		switch {
		case e.Replace[r.Old.Path] != "":
			// below
		case !local:
			f.AddReplace(r.Old.Path, r.Old.Version, r.New.Path, r.New.Version)
		case e.Staging != "" && strings.HasPrefix(r.New.Path, "./staging/"):
			f.AddReplace(r.Old.Path, "", r.Old.Path, e.Staging)
		}
	}
	for _, path := range e.Stubs {
		f.AddReplace(path, "", stubDir(path), "")
	}
	keys := make([]string, 0, len(e.Replace))
	for k := range e.Replace {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f.AddReplace(k, "", k, e.Replace[k])
	}
	return f.Format()
}

// stubDir is where a stub module lives in an entry's directory.
func stubDir(path string) string { return "./stubs/" + path }

// writeStubs writes an empty module for each path the entry stubs.
func writeStubs(dir string, paths []string) error {
	for _, path := range paths {
		d := filepath.Join(dir, filepath.FromSlash(stubDir(path)))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "go.mod"), []byte("module "+path+"\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// goLangVersion is the running toolchain's language version (1.N).
func goLangVersion() string {
	v := strings.TrimPrefix(runtime.Version(), "go")
	if parts := strings.SplitN(v, ".", 3); len(parts) >= 2 {
		return parts[0] + "." + parts[1]
	}
	return v
}

// gt compares Go versions of the form 1.N[.P].
func gt(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y int
		if i < len(pa) {
			fmt.Sscan(pa[i], &x)
		}
		if i < len(pb) {
			fmt.Sscan(pb[i], &y)
		}
		if x != y {
			return x > y
		}
	}
	return false
}

// PackagesFile, in an entry's directory, lists the packages analysed.
const PackagesFile = "packages.txt"

// listPackages returns the packages the patterns match, less those that
// import an excluded path, directly or through each other, or whose tests
// do (ctrllint analyses the tests too). Main packages
// are among them: go mod tidy records their imports too (the file
// importing them is never built).
func listPackages(dir string, patterns, exclude []string) ([]string, error) {
	args := append([]string{"list", "-e", "-mod=mod", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}"}, patterns...)
	out, err := GoCmd(dir, args...)
	if err != nil {
		return nil, err
	}
	imports := make(map[string][]string)
	var order []string
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		order = append(order, f[0])
		imports[f[0]] = f[1:]
	}
	excluded := func(path string) bool {
		for _, x := range exclude {
			if path == x || strings.HasPrefix(path, x+"/") {
				return true
			}
		}
		return false
	}
	dropped := make(map[string]bool)
	for changed := true; changed; {
		changed = false
		for _, p := range order {
			if dropped[p] {
				continue
			}
			for _, imp := range imports[p] {
				if excluded(imp) || dropped[imp] {
					dropped[p] = true
					changed = true
					break
				}
			}
		}
	}
	var pkgs []string
	for _, p := range order {
		if !dropped[p] {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("patterns %q match no packages", patterns)
	}
	return pkgs, nil
}

// checkResolved fails, naming the packages, when the analysed packages,
// their tests or their dependencies cannot be loaded (a module the proxy
// does not serve).
func checkResolved(dir string, pkgs []string) error {
	args := append([]string{"list", "-e", "-deps", "-test", "-f", "{{if .Error}}{{.ImportPath}}: {{.Error}}{{end}}{{range .DepsErrors}}{{.}}{{end}}"}, pkgs...)
	out, err := GoCmd(dir, args...)
	if err != nil {
		return err
	}
	if msg := strings.TrimSpace(string(out)); msg != "" {
		return fmt.Errorf("packages do not resolve (exclude them in corpus.json?):\n%s", msg)
	}
	return nil
}

// GoCmd runs the go command in dir and returns its standard output.
func GoCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}
