package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/driver"
	"github.com/ctrllint/ctrllint/internal/finding"
)

// pkgState is one package (one directory) that has had a file open. Its
// worker goroutine analyses it; runs of one package never overlap, and
// opens and saves that arrive during a run or within the debounce period
// are folded into one more run.
type pkgState struct {
	dir  string        // the directory, as the client's URIs name it
	kick chan struct{} // capacity 1: a run is wanted

	// Guarded by Engine.mu.
	results map[string]*fileResult // by file path, from the last run
	// dependsOn is loaded's DependsOn while there is a kept load: which
	// open packages an edit elsewhere must run again.
	dependsOn func(dir string) bool

	// Owned by the worker.
	published map[string]uri.URI // files last published with diagnostics
	problem   string             // last problem shown, so it is not repeated on every save
	// loaded is the last load without errors, which the next run
	// type-checks again when only the package's own text has changed
	// (driver.Reload): no go command on the way from a keystroke to
	// diagnostics.
	loaded *driver.Loaded
}

// fileResult is what the last run found in one file.
type fileResult struct {
	items []item
	// open: the file was open, and version is the version of its text
	// that was analysed; quick fixes are offered only for that version.
	open    bool
	version int32
}

// item is one diagnostic and its quick fixes.
type item struct {
	diag    protocol.Diagnostic
	actions []action
}

// action is a quick fix and the content of the files it edits, as
// analysed: it is offered only while they still have that content.
type action struct {
	action *protocol.CodeAction
	files  map[string][]byte
}

// schedule asks for dir's package to be analysed (or, once none of its
// files is open, for its diagnostics to be cleared).
func (s *Engine) schedule(dir string) {
	s.mu.Lock()
	if s.shutdown {
		s.mu.Unlock()
		return
	}
	p := s.pkgs[dir]
	if p == nil {
		p = &pkgState{dir: dir, kick: make(chan struct{}, 1), published: make(map[string]uri.URI)}
		s.pkgs[dir] = p
		s.workers.Add(1)
		go s.run(p)
	}
	s.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default: // a run is already pending
	}
}

// run is p's worker: it waits for a kick, then for Debounce without
// another, then analyses, until shutdown.
func (s *Engine) run(p *pkgState) {
	defer s.workers.Done()
	timer := time.NewTimer(0)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-s.work.Done():
			return
		case <-p.kick:
		}
		timer.Reset(s.opts.Debounce)
	wait:
		for {
			select {
			case <-s.work.Done():
				return
			case <-p.kick:
				timer.Reset(s.opts.Debounce)
			case <-timer.C:
				break wait
			}
		}
		if s.isOpen(p.dir) {
			s.analyzeUntilKicked(p)
		} else {
			s.mu.Lock()
			p.results, p.dependsOn = nil, nil
			s.mu.Unlock()
			p.loaded = nil
			s.publish(p, nil)
		}
	}
}

// analyzeUntilKicked analyses p, and stops the analysis when a newer
// open, change, save or close in the package comes meanwhile: its result
// would be stale, and the go command it waits for is most of its time. The
// kick is put back for run's loop to take.
func (s *Engine) analyzeUntilKicked(p *pkgState) {
	ctx, cancel := context.WithCancel(s.work)
	defer cancel()
	stop, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-p.kick:
			cancel()
			select {
			case p.kick <- struct{}{}:
			default: // another kick is pending already
			}
		case <-stop:
		}
	}()
	s.analyze(ctx, p)
	close(stop)
	<-watched
}

// snapshot returns the version of each open document in dir, and the
// texts of every open document that differ from its file (absolute path
// → text), which are what is analysed: the editor's unsaved buffers,
// this package's and those of the packages it imports.
func (s *Engine) snapshot(dir string) (map[string]int32, map[string][]byte) {
	s.mu.Lock()
	versions := make(map[string]int32)
	texts := make(map[string][]byte)
	for path, d := range s.docs {
		if filepath.Dir(path) == dir {
			versions[path] = d.version
		}
		if !d.lost {
			texts[path] = d.text
		}
	}
	s.mu.Unlock()
	var overlay map[string][]byte
	for path, text := range texts {
		if disk, err := os.ReadFile(path); err == nil && bytes.Equal(disk, text) {
			continue // saved: the go command reads it as it is
		}
		if overlay == nil {
			overlay = make(map[string][]byte)
		}
		overlay[path] = text
	}
	return versions, overlay
}

// unedited reports whether the documents open in dir, and their versions,
// are still those of versions. s.mu must be held.
func (s *Engine) unedited(dir string, versions map[string]int32) bool {
	n := 0
	for path, d := range s.docs {
		if filepath.Dir(path) != dir {
			continue
		}
		if v, ok := versions[path]; !ok || v != d.version {
			return false
		}
		n++
	}
	return n == len(versions) && n > 0
}

// isOpen reports whether a file in dir is open.
func (s *Engine) isOpen(dir string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for path := range s.docs {
		if filepath.Dir(path) == dir {
			return true
		}
	}
	return false
}

// analyze loads and analyses p's package and publishes the diagnostics of
// each of its files.
func (s *Engine) analyze(ctx context.Context, p *pkgState) {
	start := time.Now()
	root, err := moduleRoot(p.dir)
	if err != nil {
		s.report(p, protocol.MessageTypeError, err.Error())
		s.publish(p, nil)
		return
	}
	pattern := "."
	if rel, err := filepath.Rel(root, p.dir); err == nil && rel != "." {
		pattern = "./" + filepath.ToSlash(rel)
	}
	st := Settings{Analyzers: s.opts.Analyzers}
	if s.opts.Settings != nil {
		if st, err = s.opts.Settings(p.dir); err != nil {
			s.report(p, protocol.MessageTypeError, fmt.Sprintf("ctrllint did not analyse %s: %v", p.dir, err))
			s.publish(p, nil)
			return
		}
	}
	cfg := s.driverConfig(root, pattern, st.Analyzers)
	versions, overlay := s.snapshot(p.dir)
	cfg.Overlay = overlay
	fmt.Fprintf(s.opts.Log, "ctrllint: %s: analysing\n", pattern)
	pkgs, loadErr, reloaded := driver.Reload(cfg, p.loaded)
	if !reloaded {
		pkgs, loadErr = driver.Load(ctx, cfg)
	}
	if s.work.Err() != nil {
		return // shutting down
	}
	if ctx.Err() != nil {
		s.logf("ctrllint: %s: a newer change stopped the analysis", pattern)
		return
	}
	loaded := time.Now()
	res, runErr := driver.Run(cfg, pkgs)
	if runErr != nil {
		res = &driver.Result{}
	}

	// The package's files, as go list names them (it may have resolved
	// symbolic links) and as the client does, with their content, which
	// must still be what was analysed.
	files := make(map[string]string) // go list's path → the client's
	sizes := make(map[string]int)
	for _, pkg := range pkgs {
		for _, f := range pkg.GoFiles {
			files[f] = filepath.Join(p.dir, filepath.Base(f))
		}
		for _, f := range pkg.Syntax {
			if tf := pkg.Fset.File(f.FileStart); tf != nil {
				sizes[tf.Name()] = tf.Size()
			}
		}
	}
	contents := make(map[string][]byte)
	for f, client := range files {
		b, ok := overlay[client]
		var err error
		if !ok {
			b, err = os.ReadFile(f)
		}
		size, parsed := sizes[f] // cgo files are parsed from elsewhere
		if err != nil || parsed && len(b) != size {
			// Changed since it was loaded: a save notification is on its
			// way, or will be; analyse again rather than publish
			// diagnostics that no longer fit.
			s.logf("%s changed during analysis; analysing again", f)
			s.schedule(p.dir)
			return
		}
		contents[f] = b
	}

	findings := res.Findings
	if st.Keep != nil {
		findings = slices.DeleteFunc(slices.Clone(findings), func(f finding.Finding) bool { return !st.Keep(f) })
	}
	results := s.convert(findings, files, contents, st.Severity)
	for path, v := range versions {
		if fr := results[path]; fr != nil {
			fr.open, fr.version = true, v
		}
	}
	if typ, problems := problems(loadErr, runErr, res); len(problems) > 0 {
		msg := fmt.Sprintf("ctrllint could not analyse %s:\n%s", p.dir, strings.Join(problems, "\n"))
		if len(overlay) > 0 && runErr == nil {
			// Text being typed is broken more often than not, and the
			// editor shows where (gopls's diagnostics): a message at
			// every pause would be noise. A save of it is shown.
			s.logf("%s", msg)
		} else {
			s.report(p, typ, msg)
		}
	} else {
		p.problem = ""
	}
	s.mu.Lock()
	if !s.unedited(p.dir, versions) {
		// Edited, opened or closed meanwhile: the kick that came with
		// it analyses the new text (or clears the diagnostics); what
		// this run found may no longer fit the editor's text.
		s.mu.Unlock()
		s.logf("ctrllint: %s changed during analysis; not publishing", pattern)
		return
	}
	p.results = results
	s.mu.Unlock()
	// Logged before publishing, so that whoever sees the diagnostics has
	// seen the log of the run that found them.
	how := "loaded"
	if reloaded {
		how = "type-checked over the last load's dependencies"
	}
	s.logf("ctrllint: %s: %d findings in %d files, %s (load %v, analysis %v)",
		pattern, len(res.Findings), len(files), how, loaded.Sub(start).Round(time.Millisecond), time.Since(loaded).Round(time.Millisecond))
	s.publish(p, results)
	if !reloaded && loadErr == nil && len(pkgs) > 0 {
		// Off the way to the diagnostics, and not stopped by a newer
		// change (tens of milliseconds: go env and a stat per file of the
		// workspace's dependencies), which would then load again.
		kept, err := driver.Keep(s.work, cfg, pkgs, start)
		if err != nil && s.work.Err() == nil {
			s.logf("ctrllint: %s: the next run will load again: %v", pattern, err)
		}
		if kept != nil {
			p.loaded = kept
			s.mu.Lock()
			p.dependsOn = kept.DependsOn
			s.mu.Unlock()
			s.logf("ctrllint: %s: kept the load: edits of the package's text are type-checked over its dependencies", pattern)
		}
	}
}

// driverConfig is how the server asks the driver to analyse the package
// pattern names in the module at root.
func (s *Engine) driverConfig(root, pattern string, analyzers []*analysis.Analyzer) *driver.Config {
	return &driver.Config{
		Dir:           root,
		Patterns:      []string{pattern},
		Tags:          s.opts.Tags,
		Tests:         s.opts.Tests,
		Analyzers:     analyzers,
		Env:           s.opts.Env,
		WholePackages: s.opts.WholePackages,
		ExportDir:     s.opts.ExportDir,
	}
}

// problems lists why a run is incomplete: the package did not load (an
// error), or an analyzer failed (a warning).
func problems(loadErr, runErr error, res *driver.Result) (protocol.MessageType, []string) {
	var out []string
	var le *driver.LoadError
	switch {
	case errors.As(loadErr, &le):
		for _, p := range le.Problems {
			out = append(out, p.String())
		}
	case loadErr != nil:
		out = append(out, loadErr.Error())
	}
	if runErr != nil {
		out = append(out, runErr.Error())
	}
	if len(out) > 0 {
		return protocol.MessageTypeError, out
	}
	for _, e := range res.Errors {
		out = append(out, e.Error())
	}
	return protocol.MessageTypeWarning, out
}

// convert turns findings into diagnostics and quick fixes, by the client's
// file path.
func (s *Engine) convert(findings []finding.Finding, files map[string]string, contents map[string][]byte, severity func(string) string) map[string]*fileResult {
	mappers := make(map[string]*mapper)
	targets := func(file string) (target, bool) {
		content, ok := contents[file]
		if !ok {
			return target{}, false
		}
		m := mappers[file]
		if m == nil {
			m = newMapper(content)
			mappers[file] = m
		}
		return target{uri: s.uriOf(files[file]), mapper: m}, true
	}

	results := make(map[string]*fileResult)
	for f := range files {
		results[files[f]] = &fileResult{}
	}
	for _, f := range findings {
		t, ok := targets(f.Pos.File)
		if !ok {
			s.logf("skipping a finding outside the package's files: %s: %s", f.Pos, f.Message)
			continue
		}
		var docURL string
		if s.opts.DocURL != nil {
			docURL = s.opts.DocURL(f.Analyzer)
		}
		sev := "warning"
		if severity != nil {
			sev = severity(f.Analyzer)
		}
		d, err := diagnostic(f, t.mapper, docURL, sev)
		if err != nil {
			s.logf("skipping a finding: %s: %v", f.Pos, err)
			continue
		}
		it := item{diag: d}
		for _, fix := range f.Fixes {
			ca, err := quickFix(fix, f.Analyzer, d, targets)
			if err != nil {
				s.logf("skipping the fix %q of %s: %v", fix.Message, f.Pos, err)
				continue
			}
			edited := make(map[string][]byte)
			for _, e := range fix.Edits {
				edited[files[e.Pos.File]] = contents[e.Pos.File]
			}
			it.actions = append(it.actions, action{action: ca, files: edited})
		}
		fr := results[files[f.Pos.File]]
		fr.items = append(fr.items, it)
	}
	return results
}

// publish sends the diagnostics of every file in results, and clears
// those of files published before that are not in results any more.
func (s *Engine) publish(p *pkgState, results map[string]*fileResult) {
	send := func(path string, u uri.URI, diags []protocol.Diagnostic) {
		err := s.client.Publish(s.work, u, diags)
		if err != nil {
			s.logf("publishing diagnostics for %s: %v", path, err)
		}
	}
	for path, u := range p.published {
		if _, ok := results[path]; !ok {
			send(path, u, []protocol.Diagnostic{})
			delete(p.published, path)
		}
	}
	for path, fr := range results {
		u := s.uriOf(path)
		diags := make([]protocol.Diagnostic, 0, len(fr.items))
		for _, it := range fr.items {
			diags = append(diags, it.diag)
		}
		send(path, u, diags)
		if len(diags) > 0 {
			p.published[path] = u
		} else {
			delete(p.published, path)
		}
	}
}

// report shows a problem with p's package, unless it is the one shown
// last (it would pop up on every save while the package is broken); it is
// logged every time.
func (s *Engine) report(p *pkgState, typ protocol.MessageType, msg string) {
	if msg == p.problem {
		s.logf("%s", msg)
		return
	}
	p.problem = msg
	s.show(typ, "%s", msg)
}

// uriOf is the URI of the file at path: the client's own, if it has the
// file open, so that diagnostics land on its document.
func (s *Engine) uriOf(path string) uri.URI {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[path]; d != nil {
		return d.uri
	}
	return uri.File(path)
}

// moduleRoot returns the directory of the go.mod governing dir.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("ctrllint: no go.mod in %s or any directory above it: ctrllint analyses packages of modules", dir)
		}
	}
}
