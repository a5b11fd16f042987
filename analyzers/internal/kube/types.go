package kube

import (
	"go/types"
	"strings"
)

// Package paths of the APIs ctrllint understands.
const (
	CachePkg       = "k8s.io/client-go/tools/cache"
	WorkqueuePkg   = "k8s.io/client-go/util/workqueue"
	KubernetesPkg  = "k8s.io/client-go/kubernetes"
	typedClientPfx = "k8s.io/client-go/kubernetes/typed/"
	listersPfx     = "k8s.io/client-go/listers/"
	MetaPkg        = "k8s.io/apimachinery/pkg/api/meta"
	CRCachePkg     = "sigs.k8s.io/controller-runtime/pkg/cache"
	CRCacheAPIPkg  = "sigs.k8s.io/controller-runtime/pkg/cache/cacheapi"
	CRPriorityPkg  = "sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"

	InformersPkg = "k8s.io/client-go/informers"
	// ApplyConfigurationsPfx is where client-go's apply configurations
	// live, one package per group and version, like k8s.io/api.
	ApplyConfigurationsPfx = "k8s.io/client-go/applyconfigurations/"
	// WaitPkg is apimachinery's package of loop and poll helpers.
	WaitPkg = "k8s.io/apimachinery/pkg/util/wait"
	// UtilRuntimePkg holds HandleError, where controllers send the errors
	// they cannot return.
	UtilRuntimePkg  = "k8s.io/apimachinery/pkg/util/runtime"
	UnstructuredPkg = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	SchemaPkg       = "k8s.io/apimachinery/pkg/runtime/schema"

	// Packages whose functions make, wrap, combine or test errors in
	// controller code.
	APIErrorsPkg  = "k8s.io/apimachinery/pkg/api/errors"
	UtilErrorsPkg = "k8s.io/apimachinery/pkg/util/errors"
	PkgErrorsPkg  = "github.com/pkg/errors"
)

// Named returns the named type behind t, looking through aliases, one level
// of pointer and generic instantiation (it returns the generic origin).
func Named(t types.Type) *types.Named {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok {
		return nil
	}
	return n.Origin()
}

// PathName returns the package path and name of the named type behind t
// (see Named), or empty strings for unnamed and predeclared types.
func PathName(t types.Type) (path, name string) {
	n := Named(t)
	if n == nil || n.Obj().Pkg() == nil {
		return "", ""
	}
	return n.Obj().Pkg().Path(), n.Obj().Name()
}

// Is reports whether t (or *t) is the named type pkg.name.
func Is(t types.Type, pkg, name string) bool {
	p, n := PathName(t)
	return p == pkg && n == name && n != ""
}

// IsPointer reports whether t is a pointer, looking through aliases.
func IsPointer(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok
}

// IsFunc reports whether fn is the package-level function pkg.name.
func IsFunc(fn *types.Func, pkg, name string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Name() != name || fn.Pkg().Path() != pkg {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() == nil
}

// TypeArg returns the first type argument of an instantiated generic type
// (through aliases and one pointer), or nil.
func TypeArg(t types.Type) types.Type {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok && n.TypeArgs().Len() > 0 {
		return n.TypeArgs().At(0)
	}
	return nil
}

// LookupPackage finds the package with the given path among pkg and
// everything it imports, directly or not. It returns nil when the package is
// not part of pkg's build, which lets analyzers return early on packages that
// cannot possibly use the API.
func LookupPackage(pkg *types.Package, path string) *types.Package {
	seen := make(map[*types.Package]bool)
	var walk func(p *types.Package) *types.Package
	walk = func(p *types.Package) *types.Package {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == path {
			return p
		}
		for _, imp := range p.Imports() {
			if found := walk(imp); found != nil {
				return found
			}
		}
		return nil
	}
	return walk(pkg)
}

func hasPrefixPath(path, prefix string) bool {
	return path == strings.TrimSuffix(prefix, "/") || strings.HasPrefix(path, prefix)
}
