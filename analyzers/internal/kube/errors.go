package kube

import (
	"go/types"
	"strings"
)

// Packages whose functions make, wrap, combine or test errors in
// controller code.
const (
	APIErrorsPkg  = "k8s.io/apimachinery/pkg/api/errors"
	UtilErrorsPkg = "k8s.io/apimachinery/pkg/util/errors"
	PkgErrorsPkg  = "github.com/pkg/errors"
)

// ErrorNil says what a function tells about whether an error is nil.
type ErrorNil int

const (
	// ErrNever: the function always returns a non-nil error (fmt.Errorf,
	// errors.New, pkg/errors New and Errorf, reconcile.TerminalError).
	ErrNever ErrorNil = iota + 1
	// ErrWraps: it returns nil exactly when its first argument is nil
	// (pkg/errors Wrap, Wrapf, WithStack, WithMessage, WithMessagef).
	ErrWraps
	// ErrJoins: it returns nil exactly when every error it is given is nil
	// (errors.Join, apimachinery's utilerrors.NewAggregate).
	ErrJoins
	// ErrFilters: it returns nil for a nil first argument and may return
	// nil for others, so a non-nil result proves a non-nil argument
	// (controller-runtime's client.IgnoreNotFound and IgnoreAlreadyExists,
	// apimachinery's utilerrors.FilterOut).
	ErrFilters
	// ErrTests: a predicate that is false for a nil first argument, so
	// true proves it non-nil (apierrors.IsNotFound and the other Is*
	// reason tests, errors.As, and errors.Is with a sentinel target, which
	// is never nil in practice).
	ErrTests
)

// errorFuncs are keyed by package path, then function name.
var errorFuncs = map[string]map[string]ErrorNil{
	"fmt":    {"Errorf": ErrNever},
	"errors": {"New": ErrNever, "Join": ErrJoins, "As": ErrTests, "Is": ErrTests},
	PkgErrorsPkg: {
		"New": ErrNever, "Errorf": ErrNever,
		"Wrap": ErrWraps, "Wrapf": ErrWraps, "WithStack": ErrWraps, "WithMessage": ErrWraps, "WithMessagef": ErrWraps,
	},
	"golang.org/x/xerrors": {"New": ErrNever, "Errorf": ErrNever},
	UtilErrorsPkg:          {"NewAggregate": ErrJoins, "FilterOut": ErrFilters},
	CRClientPkg:            {"IgnoreNotFound": ErrFilters, "IgnoreAlreadyExists": ErrFilters},
	CRReconcilePkg:         {"TerminalError": ErrNever},
}

// ErrorFuncOf reports what the package-level function fn tells about
// whether an error is nil. apimachinery's reason tests (apierrors.IsNotFound,
// IsConflict, ... : every Is* of one error argument) all return false for
// nil: they read the reason and code of an APIStatus the error wraps.
func ErrorFuncOf(fn *types.Func) (ErrorNil, bool) {
	if fn == nil || fn.Pkg() == nil {
		return 0, false
	}
	path := fn.Pkg().Path()
	if !IsFunc(fn, path, fn.Name()) {
		return 0, false // a method
	}
	if path == APIErrorsPkg && strings.HasPrefix(fn.Name(), "Is") {
		sig := fn.Type().(*types.Signature)
		if sig.Params().Len() == 1 && isError(sig.Params().At(0).Type()) &&
			sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
			return ErrTests, true
		}
		return 0, false
	}
	k, ok := errorFuncs[path][fn.Name()]
	return k, ok
}

// isError reports whether t is the predeclared error interface.
func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
