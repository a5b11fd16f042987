package plugin

import (
	"flag"
	"maps"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Analyzer options are flags, and an analyzer's flags are bound to package
// variables that its run function reads (listerbypass's -all is the
// variable listerbypass.all). Copying the *analysis.Analyzer does not copy
// them: every copy, the ctrllint command and every plugin instance share
// one variable. So a configured analyzer is a copy whose run function sets
// the variables to the instance's values for the duration of each pass and
// puts the previous values back once no pass of that analyzer is running:
//
//   - passes that want the same values run concurrently;
//   - a pass that wants other values waits until the running ones finish,
//     so two plugin instances with different options never see each
//     other's values (golangci-lint builds a single instance per run, so
//     in practice nothing ever waits);
//   - nothing leaks: between runs the variables hold what they held before.
//
// The values always include every flag of the analyzer (the settings, else
// the flag's default), so an instance without options is isolated from one
// with options too.

// configure returns a copy of a whose run function holds a's flags at the
// given values (flag name -> value, missing names at their defaults).
func configure(a *analysis.Analyzer, opts map[string]string) *analysis.Analyzer {
	values := make(map[string]string)
	a.Flags.VisitAll(func(f *flag.Flag) { values[f.Name] = f.DefValue })
	maps.Copy(values, opts)

	c := *a
	// The copy's FlagSet is empty: setting a flag through it would change
	// the shared variable behind the lease's back.
	c.Flags = flag.FlagSet{}
	c.Flags.Init(a.Name, flag.ContinueOnError)
	run := a.Run
	st := stateOf(a)
	c.Run = func(pass *analysis.Pass) (any, error) {
		if err := st.acquire(values); err != nil {
			return nil, err
		}
		defer st.release()
		return run(pass)
	}
	return &c
}

// flagState is the lease on one analyzer's flag variables.
type flagState struct {
	flags   *flag.FlagSet
	mu      sync.Mutex
	changed sync.Cond // signalled when holders drops to zero
	holders int
	current string            // key of the values held while holders > 0
	saved   map[string]string // the values before the first holder set its own
}

var states sync.Map // *analysis.Analyzer -> *flagState

func stateOf(a *analysis.Analyzer) *flagState {
	st := &flagState{flags: &a.Flags}
	st.changed.L = &st.mu
	v, _ := states.LoadOrStore(a, st)
	return v.(*flagState)
}

// acquire waits until the flags hold values, or can be set to them.
func (st *flagState) acquire(values map[string]string) error {
	key := valuesKey(values)
	st.mu.Lock()
	defer st.mu.Unlock()
	for st.holders > 0 && st.current != key {
		st.changed.Wait()
	}
	if st.holders == 0 {
		saved := make(map[string]string)
		st.flags.VisitAll(func(f *flag.Flag) { saved[f.Name] = f.Value.String() })
		for name, v := range values {
			if err := st.flags.Set(name, v); err != nil {
				restore(st.flags, saved)
				return err
			}
		}
		st.saved, st.current = saved, key
	}
	st.holders++
	return nil
}

func (st *flagState) release() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.holders--
	if st.holders == 0 {
		restore(st.flags, st.saved)
		st.saved, st.current = nil, ""
		st.changed.Broadcast()
	}
}

func restore(fs *flag.FlagSet, saved map[string]string) {
	for name, v := range saved {
		_ = fs.Set(name, v) // a value its own String produced
	}
}

func valuesKey(values map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(values)) {
		b.WriteString(k + "=" + values[k] + "\x00")
	}
	return b.String()
}
