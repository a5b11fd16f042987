package resultcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// An entry file is a header line and a JSON payload:
//
//	ctrllint-result v2 ID SIZE SHA256\n
//	{"Findings":[...]}
//
// ID is the entry's name, so that an entry copied or renamed over another
// does not pass for it; SIZE and SHA256 are the payload's, as the go
// command's cache checks its outputs. The cache is trusted to be ours but
// not to be intact: a truncated write, a disk error or a hand edit (an
// entry replaced by `null` or `{}` used to drop a package's findings
// silently) makes the entry a miss, and the package is analysed again.
const entryMagic = "ctrllint-result v2"

// entryID is the identity an entry file carries: its base name.
func entryID(name string) string {
	return strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
}

func encodeEntry(e entry, id string) ([]byte, error) {
	if e.Findings == nil {
		e.Findings = []finding.Finding{}
	}
	if err := e.check(); err != nil {
		return nil, err
	}
	payload, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(payload)
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s %d %s\n", entryMagic, id, len(payload), hex.EncodeToString(sum[:]))
	b.Write(payload)
	return b.Bytes(), nil
}

var errBadEntry = errors.New("corrupt result cache entry")

func decodeEntry(data []byte, id string) (entry, error) {
	header, payload, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return entry{}, errBadEntry
	}
	fields := strings.Split(string(header), " ")
	if len(fields) != 5 || fields[0]+" "+fields[1] != entryMagic || fields[2] != id {
		return entry{}, errBadEntry
	}
	size, err := strconv.Atoi(fields[3])
	if err != nil || size != len(payload) {
		return entry{}, errBadEntry
	}
	sum := sha256.Sum256(payload)
	if fields[4] != hex.EncodeToString(sum[:]) {
		return entry{}, errBadEntry
	}
	var e entry
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil || dec.More() {
		return entry{}, errBadEntry
	}
	if err := e.check(); err != nil {
		return entry{}, err
	}
	return e, nil
}

// check rejects what no analysis produces: an entry without its findings
// list, or a finding that has no analyzer or no place.
func (e *entry) check() error {
	if e.Findings == nil {
		return errBadEntry
	}
	for _, f := range e.Findings {
		if f.Analyzer == "" || f.Message == "" || f.Pos.File == "" || f.Pos.Line < 1 || f.Pos.Column < 1 || f.Pos.Offset < 0 {
			return fmt.Errorf("%w: finding %q of %q at %v", errBadEntry, f.Message, f.Analyzer, f.Pos)
		}
	}
	return nil
}
