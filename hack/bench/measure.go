package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// A sample is one run of one command.
//
// Memory is measured two ways, because the tools differ in shape: ctrllint,
// the floor and staticcheck are one big process (plus a short-lived go list),
// while go vet is the go command running one vet process per package, up to
// GOMAXPROCS at a time.
//
//   - MaxRSS is exact but per process: the kernel's ru_maxrss from wait4,
//     which for a waited-for child is the largest peak RSS of that child and
//     of every descendant it waited for (not their sum).
//   - TreeRSS is the sum over the whole process tree, but sampled: every
//     sampling interval the RSS of every process in the command's process
//     group (/proc/PID/stat) is added up; the largest sum is kept. A peak
//     shorter than the interval can be missed, and pages shared between
//     processes (the vet binary's text) are counted once per process.
type sample struct {
	Wall    time.Duration `json:"wall"`
	CPU     time.Duration `json:"cpu"`     // user+system of the tree (waited-for descendants included)
	MaxRSS  int64         `json:"maxRSS"`  // bytes, largest single process
	TreeRSS int64         `json:"treeRSS"` // bytes, largest sampled sum over the process group
	Exit    int           `json:"exit"`    // -1: killed by a signal or never started
	Stderr  string        `json:"stderr,omitempty"`
	Err     string        `json:"err,omitempty"` // why the run counts as failed
}

// measure runs cmd to completion in a process group of its own and
// measures it. Standard output is discarded; the tail of standard error is
// kept for the report. ok says which exit statuses are success.
func measure(ctx context.Context, cmd *exec.Cmd, interval time.Duration, ok func(exit int) bool) sample {
	var s sample
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		s.Exit, s.Err = -1, err.Error()
		return s
	}
	defer devnull.Close()
	stderr := &tailBuffer{max: 8 << 10}
	cmd.Stdout = devnull
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}

	start := time.Now()
	if err := cmd.Start(); err != nil {
		s.Exit, s.Err = -1, err.Error()
		return s
	}
	pgid := cmd.Process.Pid
	done := make(chan struct{})
	var peak int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			if n := groupRSS(pgid); n > peak {
				peak = n
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	stop := context.AfterFunc(ctx, func() {
		// The whole group: the go command's children too.
		syscall.Kill(-pgid, syscall.SIGKILL)
	})
	werr := cmd.Wait()
	s.Wall = time.Since(start)
	stop()
	close(done)
	wg.Wait()

	s.TreeRSS = peak
	s.Stderr = stderr.String()
	if ps := cmd.ProcessState; ps != nil {
		s.Exit = ps.ExitCode()
		if ru, isRU := ps.SysUsage().(*syscall.Rusage); isRU {
			s.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			s.MaxRSS = ru.Maxrss * 1024 // kilobytes on Linux
		}
	}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		s.Err = fmt.Sprintf("killed: %v", ctx.Err())
	case werr != nil && !errors.As(werr, &exitErr):
		s.Err = werr.Error()
	case !ok(s.Exit):
		s.Err = fmt.Sprintf("exit status %d", s.Exit)
	}
	if s.TreeRSS < s.MaxRSS {
		// The sampler missed the peak of the largest process (it was
		// shorter than the interval); the sum was at least that.
		s.TreeRSS = s.MaxRSS
	}
	return s
}

// groupRSS sums the resident set size of the processes in process group
// pgid, from /proc. Processes that exit while it reads are skipped.
func groupRSS(pgid int) int64 {
	d, err := os.Open("/proc")
	if err != nil {
		return 0
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	page := int64(os.Getpagesize())
	var sum int64
	for _, name := range names {
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue
		}
		if g, rss, ok := parseStat(b); ok && g == pgid {
			sum += rss * page
		}
	}
	return sum
}

// parseStat extracts the process group (field 5) and the resident set size
// in pages (field 24) from the contents of /proc/PID/stat. The command name
// (field 2) is parenthesised and may contain spaces and parentheses, so
// fields are counted from the last ')'.
func parseStat(b []byte) (pgrp int, rssPages int64, ok bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:])
	// f[0] is field 3 (state), so field n is f[n-3].
	if len(f) < 22 {
		return 0, 0, false
	}
	g, err1 := strconv.Atoi(string(f[5-3]))
	r, err2 := strconv.ParseInt(string(f[24-3]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return g, r, true
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
	cut bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
		t.cut = true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return "...\n" + string(t.buf)
	}
	return string(t.buf)
}
