package tombstone

import (
	"go/types"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// inertFuncs lists library functions and methods that only describe the values
// they are given — log them, format them into strings or errors, count them
// in a metric, name their type — as "path.Recv.Name" (Recv empty for a
// function; the named type of a method's receiver, pointer or not, or of the
// interface an invoked method belongs to). A value passed to one of them is
// neither changed, unwrapped, kept for later nor acted on: a tombstone stays
// unhandled, a cached object stays unwritten, a key stays unsettled.
//
// The functions are named one by one rather than by package, because the
// same packages also hold calls that act: klog.Fatal and log.Panic end the
// process or the goroutine, zap's DPanic and Panic panic, slog.SetDefault
// and zap.ReplaceGlobals change global state, a logr sink may be anything.
// A wrapper in the analysed code is never inert by name: it may log and do
// something else too.
var inertFuncs = setOf(
	// fmt: the print, format and error families (not Fprint: the writer
	// is the caller's).
	"fmt..Print", "fmt..Printf", "fmt..Println",
	"fmt..Sprint", "fmt..Sprintf", "fmt..Sprintln", "fmt..Errorf",
	// log: printing, not Fatal or Panic.
	"log..Print", "log..Printf", "log..Println",
	"log.Logger.Print", "log.Logger.Printf", "log.Logger.Println",
	// reflect: the dynamic type of a value, for "unexpected type %v".
	"reflect..TypeOf",
	// log/slog: the level functions and methods, attributes, derived
	// loggers.
	"log/slog..Debug", "log/slog..Info", "log/slog..Warn", "log/slog..Error",
	"log/slog..DebugContext", "log/slog..InfoContext", "log/slog..WarnContext", "log/slog..ErrorContext",
	"log/slog..Log", "log/slog..LogAttrs", "log/slog..Default", "log/slog..With",
	"log/slog.Logger.Debug", "log/slog.Logger.Info", "log/slog.Logger.Warn", "log/slog.Logger.Error",
	"log/slog.Logger.DebugContext", "log/slog.Logger.InfoContext", "log/slog.Logger.WarnContext", "log/slog.Logger.ErrorContext",
	"log/slog.Logger.Log", "log/slog.Logger.LogAttrs", "log/slog.Logger.With", "log/slog.Logger.WithGroup",
	"log/slog..Any", "log/slog..String", "log/slog..Int", "log/slog..Int64", "log/slog..Bool", "log/slog..Group",
	// k8s.io/apimachinery/pkg/util/runtime: report an error the caller
	// cannot return (HandleCrash is not: it re-panics).
	kube.UtilRuntimePkg+"..HandleError", kube.UtilRuntimePkg+"..HandleErrorWithContext", kube.UtilRuntimePkg+"..HandleErrorWithLogger",
	// github.com/go-logr/logr, also klog.Logger (an alias).
	"github.com/go-logr/logr.Logger.Info", "github.com/go-logr/logr.Logger.Error",
	"github.com/go-logr/logr.Logger.V", "github.com/go-logr/logr.Logger.WithValues",
	"github.com/go-logr/logr.Logger.WithName", "github.com/go-logr/logr.Logger.WithCallDepth",
	"github.com/go-logr/logr.Logger.Enabled",
	"github.com/go-logr/logr..FromContext", "github.com/go-logr/logr..FromContextOrDiscard",
	// go.uber.org/zap: Logger and SugaredLogger below DPanic, and fields.
	"go.uber.org/zap.Logger.Debug", "go.uber.org/zap.Logger.Info", "go.uber.org/zap.Logger.Warn",
	"go.uber.org/zap.Logger.Error", "go.uber.org/zap.Logger.With", "go.uber.org/zap.Logger.Named",
	"go.uber.org/zap.Logger.Sugar",
	"go.uber.org/zap.SugaredLogger.Debug", "go.uber.org/zap.SugaredLogger.Info",
	"go.uber.org/zap.SugaredLogger.Warn", "go.uber.org/zap.SugaredLogger.Error",
	"go.uber.org/zap.SugaredLogger.Debugf", "go.uber.org/zap.SugaredLogger.Infof",
	"go.uber.org/zap.SugaredLogger.Warnf", "go.uber.org/zap.SugaredLogger.Errorf",
	"go.uber.org/zap.SugaredLogger.Debugw", "go.uber.org/zap.SugaredLogger.Infow",
	"go.uber.org/zap.SugaredLogger.Warnw", "go.uber.org/zap.SugaredLogger.Errorw",
	"go.uber.org/zap.SugaredLogger.Debugln", "go.uber.org/zap.SugaredLogger.Infoln",
	"go.uber.org/zap.SugaredLogger.Warnln", "go.uber.org/zap.SugaredLogger.Errorln",
	"go.uber.org/zap.SugaredLogger.With", "go.uber.org/zap.SugaredLogger.Named",
	"go.uber.org/zap.SugaredLogger.Desugar",
	"go.uber.org/zap..L", "go.uber.org/zap..S",
	"go.uber.org/zap..Any", "go.uber.org/zap..Reflect", "go.uber.org/zap..Stringer",
	"go.uber.org/zap..String", "go.uber.org/zap..Error", "go.uber.org/zap..NamedError",
	"go.uber.org/zap..Int", "go.uber.org/zap..Bool",
	// github.com/prometheus/client_golang/prometheus: counting.
	"github.com/prometheus/client_golang/prometheus.Counter.Inc",
	"github.com/prometheus/client_golang/prometheus.Counter.Add",
	"github.com/prometheus/client_golang/prometheus.Gauge.Inc",
	"github.com/prometheus/client_golang/prometheus.Gauge.Dec",
	"github.com/prometheus/client_golang/prometheus.Gauge.Add",
	"github.com/prometheus/client_golang/prometheus.Gauge.Sub",
	"github.com/prometheus/client_golang/prometheus.Gauge.Set",
	"github.com/prometheus/client_golang/prometheus.Observer.Observe",
	"github.com/prometheus/client_golang/prometheus.Histogram.Observe",
	"github.com/prometheus/client_golang/prometheus.CounterVec.WithLabelValues",
	"github.com/prometheus/client_golang/prometheus.GaugeVec.WithLabelValues",
	"github.com/prometheus/client_golang/prometheus.HistogramVec.WithLabelValues",
)

// klogInert are the inert functions of klog, in both of its major versions,
// and of its Verbose type (klog.V(2).Info...).
var klogInert = []string{
	".Info", ".Infof", ".Infoln", ".InfoS", ".InfoDepth", ".InfoSDepth",
	".Warning", ".Warningf", ".Warningln", ".WarningDepth",
	".Error", ".Errorf", ".Errorln", ".ErrorS", ".ErrorDepth", ".ErrorSDepth",
	".V", ".VDepth", ".KObj", ".KRef", ".KObjSlice", ".FromContext", ".Background",
	".LoggerWithValues", ".LoggerWithName",
	"Verbose.Info", "Verbose.Infof", "Verbose.Infoln", "Verbose.InfoS", "Verbose.InfoDepth",
	"Verbose.InfoSDepth", "Verbose.ErrorS", "Verbose.Enabled",
}

func init() {
	for _, path := range []string{"k8s.io/klog/v2", "k8s.io/klog"} {
		for _, name := range klogInert {
			inertFuncs[path+"."+name] = true
		}
	}
}

func setOf(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// isInert reports whether fn is a library function or method that only
// describes its arguments (logs, formats, counts them): passing a value to
// it neither changes, unwraps, retains nor acts on the value. Unknown
// functions, and every function of the analysed code, are not inert.
func isInert(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	recv := ""
	if r := fn.Signature().Recv(); r != nil {
		_, recv = kube.PathName(r.Type())
	}
	return inertFuncs[fn.Pkg().Path()+"."+recv+"."+fn.Name()]
}
