package kube

import "go/types"

// The logging and reporting calls: the one table of the library packages
// whose calls log, report or describe what they are given, and never act
// on it. It holds three facts, each with its users:
//
//   - IsLogPkg: packages each of whose calls writes what it is given out
//     for people, to a log or an event stream (logr, klog, log, slog, zap,
//     logrus, controller-runtime's log, client-go's event recorders).
//     finalizer: an error handed to one is only written out, not returned
//     (a wrapped error is, see IsErrorPkg); conflictretry: an object
//     handed to one keeps its resourceVersion.
//   - IsErrorPkg: packages that build error values and strings from what
//     they are given (fmt, errors, github.com/pkg/errors). conflictretry:
//     an object handed to one keeps its resourceVersion. finalizer tells
//     fmt's printing (logs) from fmt.Errorf and pkg/errors' Wrap (wraps)
//     itself: which calls return an error made from theirs is its policy.
//   - IsInert: the functions and methods, one by one, that only describe
//     the values they are given: log them, format them, count them in a
//     metric, name their type. tombstone: a value passed to one is neither
//     changed, unwrapped, kept for later nor acted on.
//
// IsInert names functions one by one rather than by package, because the
// same packages also hold calls that act: klog.Fatal and log.Panic end the
// process or the goroutine, zap's DPanic and Panic panic, slog.SetDefault
// and zap.ReplaceGlobals change global state, a logr sink may be anything.
// A wrapper in the analysed code is never inert by name: it may log and do
// something else too.

// A reportingPkg is what the table says of one package.
type reportingPkg struct {
	logs bool // IsLogPkg
	errs bool // IsErrorPkg
	// inert are the functions ("Name") and methods ("Recv.Name": the named
	// type of the receiver, pointer or not, or of the interface an invoked
	// method belongs to) that IsInert holds.
	inert []string
}

// reportingPkgs is the table, by package path.
var reportingPkgs = map[string]reportingPkg{
	// fmt: the print, format and error families (not Fprint: the writer
	// is the caller's).
	"fmt": {errs: true, inert: []string{
		"Print", "Printf", "Println", "Sprint", "Sprintf", "Sprintln", "Errorf",
	}},
	"errors":                {errs: true},
	"github.com/pkg/errors": {errs: true},
	// log: printing, not Fatal or Panic.
	"log": {logs: true, inert: []string{
		"Print", "Printf", "Println", "Logger.Print", "Logger.Printf", "Logger.Println",
	}},
	// log/slog: the level functions and methods, attributes, derived
	// loggers.
	"log/slog": {logs: true, inert: []string{
		"Debug", "Info", "Warn", "Error", "DebugContext", "InfoContext", "WarnContext", "ErrorContext",
		"Log", "LogAttrs", "Default", "With",
		"Logger.Debug", "Logger.Info", "Logger.Warn", "Logger.Error",
		"Logger.DebugContext", "Logger.InfoContext", "Logger.WarnContext", "Logger.ErrorContext",
		"Logger.Log", "Logger.LogAttrs", "Logger.With", "Logger.WithGroup",
		"Any", "String", "Int", "Int64", "Bool", "Group",
	}},
	// klog, in both of its major versions, and its Verbose type
	// (klog.V(2).Info...).
	"k8s.io/klog/v2": {logs: true, inert: klogInert},
	"k8s.io/klog":    {logs: true, inert: klogInert},
	// github.com/go-logr/logr, also klog.Logger (an alias).
	"github.com/go-logr/logr": {logs: true, inert: []string{
		"Logger.Info", "Logger.Error", "Logger.V", "Logger.WithValues", "Logger.WithName",
		"Logger.WithCallDepth", "Logger.Enabled", "FromContext", "FromContextOrDiscard",
	}},
	// go.uber.org/zap: Logger and SugaredLogger below DPanic, and fields.
	"go.uber.org/zap": {logs: true, inert: []string{
		"Logger.Debug", "Logger.Info", "Logger.Warn", "Logger.Error", "Logger.With", "Logger.Named", "Logger.Sugar",
		"SugaredLogger.Debug", "SugaredLogger.Info", "SugaredLogger.Warn", "SugaredLogger.Error",
		"SugaredLogger.Debugf", "SugaredLogger.Infof", "SugaredLogger.Warnf", "SugaredLogger.Errorf",
		"SugaredLogger.Debugw", "SugaredLogger.Infow", "SugaredLogger.Warnw", "SugaredLogger.Errorw",
		"SugaredLogger.Debugln", "SugaredLogger.Infoln", "SugaredLogger.Warnln", "SugaredLogger.Errorln",
		"SugaredLogger.With", "SugaredLogger.Named", "SugaredLogger.Desugar",
		"L", "S", "Any", "Reflect", "Stringer", "String", "Error", "NamedError", "Int", "Bool",
	}},
	"github.com/sirupsen/logrus":             {logs: true},
	"sigs.k8s.io/controller-runtime/pkg/log": {logs: true},
	"k8s.io/client-go/tools/record":          {logs: true},
	"k8s.io/client-go/tools/events":          {logs: true},
	// apimachinery's util/runtime: report an error the caller cannot
	// return (HandleCrash is not inert: it re-panics).
	UtilRuntimePkg: {inert: []string{"HandleError", "HandleErrorWithContext", "HandleErrorWithLogger"}},
	// reflect: the dynamic type of a value, for "unexpected type %v".
	"reflect": {inert: []string{"TypeOf"}},
	// prometheus: counting.
	"github.com/prometheus/client_golang/prometheus": {inert: []string{
		"Counter.Inc", "Counter.Add", "Gauge.Inc", "Gauge.Dec", "Gauge.Add", "Gauge.Sub", "Gauge.Set",
		"Observer.Observe", "Histogram.Observe",
		"CounterVec.WithLabelValues", "GaugeVec.WithLabelValues", "HistogramVec.WithLabelValues",
	}},
}

// klogInert are the inert functions of klog and of its Verbose type.
var klogInert = []string{
	"Info", "Infof", "Infoln", "InfoS", "InfoDepth", "InfoSDepth",
	"Warning", "Warningf", "Warningln", "WarningDepth",
	"Error", "Errorf", "Errorln", "ErrorS", "ErrorDepth", "ErrorSDepth",
	"V", "VDepth", "KObj", "KRef", "KObjSlice", "FromContext", "Background",
	"LoggerWithValues", "LoggerWithName",
	"Verbose.Info", "Verbose.Infof", "Verbose.Infoln", "Verbose.InfoS", "Verbose.InfoDepth",
	"Verbose.InfoSDepth", "Verbose.ErrorS", "Verbose.Enabled",
}

// inertFuncs indexes the table's inert entries by InertKey.
var inertFuncs = func() map[string]bool {
	m := make(map[string]bool)
	for path, p := range reportingPkgs {
		for _, name := range p.inert {
			recv, fn := "", name
			for i := len(name) - 1; i >= 0; i-- {
				if name[i] == '.' {
					recv, fn = name[:i], name[i+1:]
					break
				}
			}
			m[path+"."+recv+"."+fn] = true
		}
	}
	return m
}()

// IsLogPkg reports whether every call of the package at path writes what
// it is given out for people: a logger's, an event recorder's.
func IsLogPkg(path string) bool { return reportingPkgs[path].logs }

// IsErrorPkg reports whether the package at path builds error values and
// strings from what it is given: fmt, errors, github.com/pkg/errors.
func IsErrorPkg(path string) bool { return reportingPkgs[path].errs }

// IsInert reports whether fn is a library function or method that only
// describes its arguments (logs, formats, counts them): passing a value to
// it neither changes, unwraps, retains nor acts on the value. Unknown
// functions, and every function of the analysed code, are not inert.
func IsInert(fn *types.Func) bool {
	return inertFuncs[InertKey(fn)]
}

// InertKey is fn's key in the inert table: "path.Recv.Name", Recv empty
// for a function (so "fmt..Sprintf", "github.com/go-logr/logr.Logger.Info").
func InertKey(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	recv := ""
	if r := fn.Signature().Recv(); r != nil {
		_, recv = PathName(r.Type())
	}
	return fn.Pkg().Path() + "." + recv + "." + fn.Name()
}

// InertFuncs returns the inert table's keys (see InertKey), a new map.
func InertFuncs() map[string]bool {
	m := make(map[string]bool, len(inertFuncs))
	for k := range inertFuncs {
		m[k] = true
	}
	return m
}
