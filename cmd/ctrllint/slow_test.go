package main

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
)

// slowDirEnv names a directory where the slow analyzer records each
// package it starts on, before taking its time over it: the interrupt
// test's way to know that analysis is under way.
const slowDirEnv = "CTRLLINT_TEST_SLOW_DIR"

// slow reports nothing; with slowDirEnv set it takes 400 ms a package.
var slow = &analysis.Analyzer{
	Name: "slow",
	Doc:  "slow: takes its time, so that a run can be interrupted while it analyses",
	URL:  "https://example.com/slow",
	Run: func(pass *analysis.Pass) (any, error) {
		if dir := os.Getenv(slowDirEnv); dir != "" {
			name := strings.NewReplacer("/", "_", " ", "_").Replace(pass.Pkg.Path())
			os.WriteFile(filepath.Join(dir, name), nil, 0o644)
			time.Sleep(400 * time.Millisecond)
		}
		return nil, nil
	},
}

func slowSuite() suite {
	s := testSuite()
	s.analyzers = append(s.analyzers, slow)
	return s
}
