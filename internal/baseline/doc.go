// Package baseline records the findings of a run in a file and later
// tells which findings of another run are not in it: the -baseline and
// -baseline-write modes of the ctrllint command (docs/baseline.md).
//
// A finding is identified without its line number, so that edits above
// it do not make it new again: by its analyzer, its file (relative to the
// baseline file's directory, so a baseline works from any working
// directory and in any clone), the named function that encloses it, and
// a hash of its message and of its line's code with all whitespace
// removed. Findings with the same identity are counted, and a baseline
// absorbs as many of them as it recorded.
package baseline
