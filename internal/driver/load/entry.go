package load

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// The caches under the cache directory (the result cache's entries, the
// export data kept, exports.go) are trusted to be ours but not to be
// intact: each entry file is a header line and a payload,
//
//	MAGIC NAME SIZE SHA256\n
//	payload
//
// MAGIC says which cache and format; NAME is the entry's file name, so
// that an entry copied or renamed over another does not pass for it; SIZE
// and SHA256 are the payload's, as the go command's cache checks its
// outputs. A truncated write, a disk error or a hand edit makes the entry
// fail OpenEntry, and the cache treats it as missing.

// ErrBadEntry is OpenEntry's error for an entry that is not intact.
var ErrBadEntry = errors.New("corrupt cache entry")

// EntryName is the name an entry file carries in its header: its base
// name without extension.
func EntryName(file string) string {
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
}

// SealEntry returns payload under the header of an entry named name.
func SealEntry(magic, name string, payload []byte) []byte {
	sum := sha256.Sum256(payload)
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s %d %s\n", magic, name, len(payload), hex.EncodeToString(sum[:]))
	b.Write(payload)
	return b.Bytes()
}

// OpenEntry returns the payload of data, an entry of magic's cache named
// name, failing with ErrBadEntry when its header is not SealEntry's for
// that payload.
func OpenEntry(data []byte, magic, name string) ([]byte, error) {
	header, payload, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return nil, ErrBadEntry
	}
	rest, ok := strings.CutPrefix(string(header), magic+" ")
	if !ok {
		return nil, ErrBadEntry
	}
	fields := strings.Split(rest, " ")
	if len(fields) != 3 || fields[0] != name {
		return nil, ErrBadEntry
	}
	size, err := strconv.Atoi(fields[1])
	if err != nil || size != len(payload) {
		return nil, ErrBadEntry
	}
	sum := sha256.Sum256(payload)
	if fields[2] != hex.EncodeToString(sum[:]) {
		return nil, ErrBadEntry
	}
	return payload, nil
}
