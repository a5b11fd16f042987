package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// compilingNow returns, sorted, the import paths of the packages that the
// compilers among this process' descendants are compiling now, read from
// /proc: a process's parent is in its stat, its arguments in its cmdline.
// A process that ends while it is read is skipped.
func compilingNow() []string {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := make(map[int][]int)
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue // not a process
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone
		}
		if ppid, ok := parentOf(stat); ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var pkgs []string
	queue := children[os.Getpid()]
	for len(queue) > 0 {
		pid := queue[0]
		queue = append(queue[1:], children[pid]...)
		cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if err != nil {
			continue
		}
		argv := bytes.Split(bytes.TrimSuffix(cmdline, []byte{0}), []byte{0})
		args := make([]string, len(argv))
		for i, a := range argv {
			args[i] = string(a)
		}
		if p, ok := compiledPackage(args); ok {
			pkgs = append(pkgs, p)
		}
	}
	slices.Sort(pkgs)
	return slices.Compact(pkgs)
}

// parentOf reads the parent's pid from /proc/PID/stat: "pid (comm) state
// ppid ...", where comm may hold spaces and parentheses, so the fields
// are counted from its last ")".
func parentOf(stat []byte) (int, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(fields[1]))
	return ppid, err == nil
}
