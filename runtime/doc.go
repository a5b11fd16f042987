// Package runtime is ctrllint's reference controller runtime: the patterns
// the analyzers ask for, as a library a controller author can import instead
// of copying sample-controller. It is filled in by later work; ctrllint must
// report nothing on it.
package runtime
