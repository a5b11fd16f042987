package baseline

import (
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"

	"github.com/ctrllint/ctrllint/internal/finding"
	"github.com/ctrllint/ctrllint/internal/regular"
)

// A Baseline is a baseline file, read.
type Baseline struct {
	path    string // the file's path; "" for one built in memory (Of)
	dir     string // the directory its paths are relative to, for Of
	entries []Entry
}

// Of is a baseline of entries whose paths are relative to dir, kept in
// memory: -new-from-rev's findings of the revision, matched with the
// working tree's as a baseline file's are.
func Of(dir string, entries []Entry) *Baseline {
	return &Baseline{dir: dir, entries: entries}
}

// Read reads the baseline file at path. A missing, unreadable or corrupt
// file is an error: a baseline that silently read as empty would report
// every finding, one that failed open, none. So is one that is not a
// regular file: a named pipe would block the read for ever (package
// regular).
func Read(path string) (*Baseline, error) {
	f, err := regular.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := Decode(f, path)
	if err != nil {
		return nil, err
	}
	return &Baseline{path: path, entries: entries}, nil
}

// Entries are the baseline's entries, in the file's order.
func (b *Baseline) Entries() []Entry { return b.entries }

// Build returns the entries recording findings, for a baseline file in
// dir: one per identity, with the number of findings that have it.
func Build(dir string, findings []finding.Finding) ([]Entry, error) {
	k, err := newKeyer(dir)
	if err != nil {
		return nil, err
	}
	index := make(map[key]int)
	var entries []Entry
	for i := range findings {
		e, err := k.entry(&findings[i])
		if err != nil {
			return nil, err
		}
		if j, ok := index[e.key()]; ok {
			entries[j].Count++
			continue
		}
		index[e.key()] = len(entries)
		entries = append(entries, e)
	}
	return entries, nil
}

// Write records findings in a baseline file at path, replacing it whole
// or, if writing fails, not at all. It returns the entries written.
func Write(path string, findings []finding.Finding) ([]Entry, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	entries, err := Build(filepath.Dir(abs), findings)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := Encode(&buf, entries); err != nil {
		return nil, err
	}
	if err := writeFile(abs, buf.Bytes()); err != nil {
		return nil, err
	}
	return entries, nil
}

// A Match is how the findings of a run compare with a baseline.
type Match struct {
	// Baselined[i] reports whether findings[i] is in the baseline.
	Baselined []bool
	// Gone are the entries that occurred fewer times than recorded,
	// each with the count that did not occur.
	Gone []Entry
}

// Match tells which of findings the baseline holds. Of several findings
// with one identity, the first ones in findings' order (the outputs'
// order: by file and line) are the baselined ones, as many as recorded;
// the rest are new.
func (b *Baseline) Match(findings []finding.Finding) (*Match, error) {
	dir := b.dir
	if b.path != "" {
		abs, err := filepath.Abs(b.path)
		if err != nil {
			return nil, err
		}
		dir = filepath.Dir(abs)
	}
	k, err := newKeyer(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", cmp.Or(b.path, dir), err)
	}
	left := make(map[key]int, len(b.entries))
	for _, e := range b.entries {
		left[e.key()] = e.Count
	}
	m := &Match{Baselined: make([]bool, len(findings))}
	for i := range findings {
		e, err := k.entry(&findings[i])
		if err != nil {
			return nil, err
		}
		k := e.key()
		if left[k] == 0 && e.legacy != e.Hash {
			// An entry of a baseline written before lists of lines in
			// messages were left out of hashes.
			k.hash = e.legacy
		}
		if left[k] > 0 {
			left[k]--
			m.Baselined[i] = true
		}
	}
	for _, e := range b.entries {
		if n := left[e.key()]; n > 0 {
			e.Count = n
			m.Gone = append(m.Gone, e)
		}
	}
	return m, nil
}
