package baseline

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Version is the version of the format this package reads and writes.
const Version = 1

// header is the first line of every baseline file: it names the format,
// so that a file of something else is refused rather than read as an
// empty baseline.
type header struct {
	Version *int `json:"ctrllint-baseline"`
}

// An Entry is one line of a baseline: the identity of Count findings.
// The JSON field order is the sort order, so that a baseline reads (and
// diffs) grouped by file and function.
type Entry struct {
	File     string `json:"file"`     // slash path relative to the baseline file's directory
	Function string `json:"function"` // "F", "(T).M", "(*T).M"; "" outside functions
	Analyzer string `json:"analyzer"`
	// Message is the finding's message, for whoever reads the file;
	// matching uses Hash, which covers it.
	Message string `json:"message"`
	Hash    string `json:"hash"`            // hex; see Hash
	Count   int    `json:"count,omitempty"` // omitted when 1
	// legacy is the hash a baseline written before lists of lines were
	// left out of messages has for a finding's entry (legacyHash).
	legacy string
}

// key is what matching compares: everything but the message, which the
// hash covers, and the count.
type key struct{ file, function, analyzer, hash string }

func (e Entry) key() key { return key{e.File, e.Function, e.Analyzer, e.Hash} }

func compareEntries(x, y Entry) int {
	return cmp.Or(
		cmp.Compare(x.File, y.File),
		cmp.Compare(x.Function, y.Function),
		cmp.Compare(x.Analyzer, y.Analyzer),
		cmp.Compare(x.Message, y.Message),
		cmp.Compare(x.Hash, y.Hash),
	)
}

// Encode writes entries in the format: the header line, then one JSON
// object a line, sorted. Entries with equal keys must have been merged
// (Build does).
func Encode(w io.Writer, entries []Entry) error {
	entries = slices.Clone(entries)
	slices.SortFunc(entries, compareEntries)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "{\"ctrllint-baseline\":%d}\n", Version)
	enc := json.NewEncoder(&buf)
	// Messages quote code ("<-" and "&x"): keep them readable.
	enc.SetEscapeHTML(false)
	for _, e := range entries {
		if e.Count == 1 {
			e.Count = 0
		}
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Decode reads a baseline from r; name is the file's name for errors,
// which say name:line. It is strict: a file that is not exactly a
// baseline of this version is an error, never fewer entries.
func Decode(r io.Reader, name string) ([]Entry, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20) // a line is one finding; its message can be long
	var entries []Entry
	seen := make(map[key]int) // line of each key
	n := 0
	for sc.Scan() {
		n++
		// A checkout with CRLF line endings (git's autocrlf) is the
		// same baseline.
		line := bytes.TrimSuffix(sc.Bytes(), []byte("\r"))
		if n == 1 {
			if err := decodeHeader(line); err != nil {
				return nil, fmt.Errorf("%s:1: %v", name, err)
			}
			continue
		}
		e, err := decodeEntry(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		if prev, ok := seen[e.key()]; ok {
			return nil, fmt.Errorf("%s:%d: same finding as line %d (add the counts in one line, or rewrite the baseline)", name, n, prev)
		}
		seen[e.key()] = n
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line too long", name, n+1)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: empty, not a ctrllint baseline (its first line is {\"ctrllint-baseline\":%d})", name, Version)
	}
	return entries, nil
}

func decodeHeader(line []byte) error {
	var h header
	if err := strictUnmarshal(line, &h); err != nil || h.Version == nil {
		return fmt.Errorf("not a ctrllint baseline (its first line is {\"ctrllint-baseline\":%d})", Version)
	}
	if *h.Version != Version {
		return fmt.Errorf("baseline format version %d, this ctrllint reads version %d", *h.Version, Version)
	}
	return nil
}

func decodeEntry(line []byte) (Entry, error) {
	var e Entry
	if err := strictUnmarshal(line, &e); err != nil {
		return e, fmt.Errorf("not a baseline entry: %v", err)
	}
	switch {
	case e.Analyzer == "":
		return e, errors.New(`no "analyzer"`)
	case e.Hash == "":
		return e, errors.New(`no "hash"`)
	case e.Count < 0:
		return e, fmt.Errorf(`"count" %d is negative`, e.Count)
	case e.File != "" && (filepath.IsAbs(e.File) || strings.Contains(e.File, `\`)):
		return e, fmt.Errorf(`"file" %q is not a slash path relative to the baseline's directory`, e.File)
	}
	if e.Count == 0 {
		e.Count = 1
	}
	return e, nil
}

// strictUnmarshal decodes exactly one JSON object with no unknown fields:
// a misspelt field would otherwise be read as empty.
func strictUnmarshal(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("text after the JSON object")
	}
	return nil
}

// writeFile writes data to path whole or not at all: into a temporary
// file beside it, renamed over it once complete, so that a failed write
// (a full disk) leaves the previous baseline as it was.
func writeFile(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm() // rewriting keeps the file's permissions
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
