package requeueerr

import (
	"go/types"
	"strings"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// errorNil says what a function tells about whether an error is nil.
type errorNil int

const (
	// errNever: the function always returns a non-nil error (fmt.Errorf,
	// errors.New, pkg/errors New and Errorf, reconcile.TerminalError).
	errNever errorNil = iota + 1
	// errWraps: it returns nil exactly when its first argument is nil
	// (pkg/errors Wrap, Wrapf, WithStack, WithMessage, WithMessagef).
	errWraps
	// errJoins: it returns nil exactly when every error it is given is nil
	// (errors.Join, apimachinery's utilerrors.NewAggregate).
	errJoins
	// errFilters: it returns nil for a nil first argument and may return
	// nil for others, so a non-nil result proves a non-nil argument
	// (controller-runtime's client.IgnoreNotFound and IgnoreAlreadyExists,
	// apimachinery's utilerrors.FilterOut).
	errFilters
	// errTests: a predicate that is false for a nil first argument, so
	// true proves it non-nil (apierrors.IsNotFound and the other Is*
	// reason tests, errors.As, and errors.Is with a sentinel target, which
	// is never nil in practice).
	errTests
)

// errorFuncs are keyed by package path, then function name.
var errorFuncs = map[string]map[string]errorNil{
	"fmt":    {"Errorf": errNever},
	"errors": {"New": errNever, "Join": errJoins, "As": errTests, "Is": errTests},
	kube.PkgErrorsPkg: {
		"New": errNever, "Errorf": errNever,
		"Wrap": errWraps, "Wrapf": errWraps, "WithStack": errWraps, "WithMessage": errWraps, "WithMessagef": errWraps,
	},
	"golang.org/x/xerrors": {"New": errNever, "Errorf": errNever},
	kube.UtilErrorsPkg:     {"NewAggregate": errJoins, "FilterOut": errFilters},
	kube.CRClientPkg:       {"IgnoreNotFound": errFilters, "IgnoreAlreadyExists": errFilters},
	kube.CRReconcilePkg:    {"TerminalError": errNever},
}

// errorFuncOf reports what the package-level function fn tells about
// whether an error is nil. apimachinery's reason tests (apierrors.IsNotFound,
// IsConflict, ... : every Is* of one error argument) all return false for
// nil: they read the reason and code of an APIStatus the error wraps.
func errorFuncOf(fn *types.Func) (errorNil, bool) {
	if fn == nil || fn.Pkg() == nil {
		return 0, false
	}
	path := fn.Pkg().Path()
	if !kube.IsFunc(fn, path, fn.Name()) {
		return 0, false // a method
	}
	if path == kube.APIErrorsPkg && strings.HasPrefix(fn.Name(), "Is") {
		sig := fn.Type().(*types.Signature)
		if sig.Params().Len() == 1 && isError(sig.Params().At(0).Type()) &&
			sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
			return errTests, true
		}
		return 0, false
	}
	k, ok := errorFuncs[path][fn.Name()]
	return k, ok
}
