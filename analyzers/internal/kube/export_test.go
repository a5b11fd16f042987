package kube

import (
	"path"
	"regexp"
	"strings"
)

// SetterFuncs returns the package functions of the setter table as
// [path, name] pairs.
func SetterFuncs() [][2]string {
	var out [][2]string
	for p, fns := range setterFuncs {
		for name := range fns {
			out = append(out, [2]string{p, name})
		}
	}
	return out
}

// MetaSetterReceivers returns the receiver types of the setter table whose
// Set* methods set the ObjectMeta field of their name, as [path, name]
// pairs.
func MetaSetterReceivers() [][2]string {
	var out [][2]string
	for p, types := range setterReceivers {
		for name, meta := range types {
			if meta {
				out = append(out, [2]string{p, name})
			}
		}
	}
	return out
}

// NonMetaSetters are the Set* methods of Unstructured that set no metadata.
func NonMetaSetters() map[string]bool { return nonMetaSetters }

// CacheWaitFuncs and FactoryWaitMethods are the names of the wait table.
func CacheWaitFuncs() map[string]bool     { return cacheWaits }
func FactoryWaitMethods() map[string]bool { return factoryWaits }

// LogPkgs and ErrorPkgs list the package-level facts of the reporting
// table.
func LogPkgs() []string   { return reportingPaths(func(p reportingPkg) bool { return p.logs }) }
func ErrorPkgs() []string { return reportingPaths(func(p reportingPkg) bool { return p.errs }) }

func reportingPaths(keep func(reportingPkg) bool) []string {
	var out []string
	for path, p := range reportingPkgs {
		if keep(p) {
			out = append(out, path)
		}
	}
	return out
}

// TableEntries returns what kube's tables of API names hold, in the forms
// code spells them, for TestNoCopiedTables. paths are the packages of the
// package-level facts (IsLogPkg, IsErrorPkg): there the path is the entry.
// The paths of the function tables (the setters' metav1, the waits'
// cache) are not: other facts name those packages too. names are the
// functions and methods, qualified by path ("path.Name", "path.Recv.Name",
// "path..Name" as tombstone keyed them) or by package name
// ("controllerutil.AddFinalizer", "metav1.SetMetaDataLabel", "klog.InfoS",
// "Verbose.Info", ".Info"), and bare where the name is the table's own
// (SetMetaDataLabel, RemoveControllerReference, WaitForNamedCacheSync,
// ObjectMeta), not a word every logger or API uses (Info, Error, Object).
func TableEntries() (paths, names map[string]bool) {
	paths, names = make(map[string]bool), make(map[string]bool)
	qualify := func(pkgPath, recv, name string, bare bool) {
		for _, q := range pkgNames(pkgPath) {
			if recv == "" {
				names[q+"."+name] = true
			} else {
				names[q+"."+recv+"."+name] = true
			}
		}
		names[pkgPath+"."+recv+"."+name] = true
		if recv == "" {
			names[pkgPath+"."+name] = true
			names["."+name] = true
		} else {
			names[recv+"."+name] = true
		}
		if bare {
			names[name] = true
		}
	}
	for p, fns := range setterFuncs {
		for name := range fns {
			qualify(p, "", name, true)
		}
	}
	for p, types := range setterReceivers {
		for name := range types {
			qualify(p, "", name, name != "Object")
		}
	}
	for p, r := range reportingPkgs {
		if r.logs || r.errs {
			paths[p] = true
		}
		for _, entry := range r.inert {
			recv, name := "", entry
			if i := strings.LastIndex(entry, "."); i >= 0 {
				recv, name = entry[:i], entry[i+1:]
			}
			qualify(p, recv, name, false)
		}
	}
	for name := range cacheWaits {
		qualify(CachePkg, "", name, true)
	}
	for name := range factoryWaits {
		names[name] = true
	}
	return paths, names
}

var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

// pkgNames are the names code gives the package at pkgPath: its last
// element, and for a version element the one before (klog/v2: klog) and
// the usual alias (meta/v1: metav1).
func pkgNames(pkgPath string) []string {
	last := path.Base(pkgPath)
	if !majorVersion.MatchString(last) {
		return []string{last}
	}
	prev := path.Base(path.Dir(pkgPath))
	return []string{last, prev, prev + last}
}
