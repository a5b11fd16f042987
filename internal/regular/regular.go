// Package regular opens the files a run reads whole before it starts (the
// configuration file, the baseline) only if they are regular files.
//
// Reading a named pipe, a terminal or /dev/stdin would wait for a writer
// that may never come, in a read no signal interrupts: the command catches
// SIGINT and SIGTERM to stop its go command cleanly, so a process blocked
// there could only be killed. Stat refuses such a file before it is
// opened; the open does not wait for a writer (O_NONBLOCK where there is
// one) and is checked again, so a file swapped for a pipe between the two
// cannot block either.
package regular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is the error (inside an *fs.PathError) for a file that
// exists but is not a regular file after following symbolic links, or is a
// symbolic link to nothing.
type NotRegularError struct {
	// Mode is the file's mode (the link's own for a dangling link).
	Mode fs.FileMode
	// Target is a dangling link's target, "" for other files.
	Target string
}

func (e *NotRegularError) Error() string {
	if e.Mode&fs.ModeSymlink != 0 {
		return fmt.Sprintf("a symbolic link to %s, which does not exist", e.Target)
	}
	return kind(e.Mode) + ", not a regular file"
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}

// Check returns nil if path names a regular file after following symbolic
// links, and otherwise an *fs.PathError whose Op is "open": Stat's error
// (no such file, a loop of links, a directory that cannot be searched), or
// a NotRegularError, also for a symbolic link to nothing, which Stat
// reports as missing.
func Check(path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if target, lerr := os.Readlink(path); lerr == nil {
			return &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: fs.ModeSymlink, Target: target}}
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		// As opening it would say: "open FILE: no such file or directory".
		return &fs.PathError{Op: "open", Path: pe.Path, Err: pe.Err}
	}
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: st.Mode()}}
	}
	return nil
}

// Open opens the regular file at path for reading, or returns an
// *fs.PathError: Check's, or the open's (no permission to read it).
func Open(path string) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	return openChecked(path)
}

// openChecked opens path, which Check found a regular file, without
// waiting on a named pipe put in its place since, and refuses whatever is
// not a regular file now.
func openChecked(path string) (*os.File, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: st.Mode()}}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the regular file at path whole, as os.ReadFile does, or
// returns Open's error.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
