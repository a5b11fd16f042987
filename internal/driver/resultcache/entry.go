package resultcache

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ctrllint/ctrllint/internal/driver/load"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// An entry file is a header line and a JSON payload (load.SealEntry):
//
//	ctrllint-result v2 ID SIZE SHA256\n
//	{"Findings":[...]}
//
// An entry that fails its check (load.OpenEntry), or whose payload is not
// an entry (an entry replaced by `null` or `{}` used to drop a package's
// findings silently), is a miss: the package is analysed again.
const entryMagic = "ctrllint-result v2"

// entryID is the identity an entry file carries: its base name.
func entryID(name string) string { return load.EntryName(name) }

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
	return load.SealEntry(entryMagic, id, payload), nil
}

var errBadEntry = errors.New("corrupt result cache entry")

func decodeEntry(data []byte, id string) (entry, error) {
	payload, err := load.OpenEntry(data, entryMagic, id)
	if err != nil {
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
