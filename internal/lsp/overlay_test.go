package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// Unsaved buffers are analysed as the editor has them: findings appear
// and go with edits that are never saved, quick fixes apply to the
// buffer's text, and a fix computed for an older text is not offered.
func TestUnsavedBuffer(t *testing.T) {
	dir := fixture(t)
	opts := testOptions()
	// Long enough that the changes below, sent back to back, fall in one
	// pause, and that a code action request right after a change comes
	// before that change's analysis.
	opts.Debounce = 400 * time.Millisecond
	s := start(t, opts)
	c := s.client
	s.initialize(t, filepath.Dir(dir))

	path := filepath.Join(dir, "handlers.go")
	disk, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join(dir, "handlers.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	handlers := s.open(t, path)
	c.await(t, "diagnostics of handlers.go", func() bool { return len(c.diags[handlers]) == 2 })
	c.mu.Lock()
	diags := slices.Clone(c.diags[handlers])
	c.mu.Unlock()
	actions := s.codeActions(t, handlers, diags[0])
	if len(actions) != 1 {
		t.Fatalf("code actions %+v", actions)
	}

	// The first fix, typed as incremental changes (the last edit first,
	// so that each change's range is in the text the changes before it
	// left): the finding goes, without a save.
	edits := slices.Clone(actions[0].Edit.Changes[handlers])
	buffer := applyLSP(t, string(disk), edits)
	slices.SortFunc(edits, func(a, b protocol.TextEdit) int {
		if a.Range.Start.Line != b.Range.Start.Line {
			return int(b.Range.Start.Line) - int(a.Range.Start.Line)
		}
		return int(b.Range.Start.Character) - int(a.Range.Start.Character)
	})
	var changes []protocol.TextDocumentContentChangeEvent
	for _, e := range edits {
		changes = append(changes, &protocol.TextDocumentContentChangePartial{Range: e.Range, Text: e.NewText})
	}
	s.change(t, handlers, changes...)
	c.await(t, "one diagnostic left in the unsaved buffer", func() bool { return len(c.diags[handlers]) == 1 })
	if now, _ := os.ReadFile(path); string(now) != string(disk) {
		t.Fatal("the file changed on disk")
	}

	// The remaining finding's fix is offered on the unsaved buffer and
	// applies to its text.
	c.mu.Lock()
	diags = slices.Clone(c.diags[handlers])
	c.mu.Unlock()
	actions = s.codeActions(t, handlers, diags[0])
	if len(actions) != 1 {
		t.Fatalf("code actions on the unsaved buffer: %+v", actions)
	}
	fixed := applyLSP(t, buffer, actions[0].Edit.Changes[handlers])
	if fixed != string(golden) {
		t.Errorf("the unsaved buffer after both fixes:\n%s\nwant (handlers.go.golden):\n%s", fixed, golden)
	}

	// After a newer change, the fix computed for the older text is not
	// offered, even before the newer text is analysed.
	s.change(t, handlers, &protocol.TextDocumentContentChangeWholeDocument{Text: fixed})
	if n := len(s.codeActions(t, handlers, diags[0])); n != 0 {
		t.Errorf("%d code actions for text older than the document's", n)
	}
	c.await(t, "the diagnostics of the fixed buffer to be cleared", func() bool { return len(c.diags[handlers]) == 0 })

	// An unsaved edit that brings the findings back publishes them.
	s.change(t, handlers, &protocol.TextDocumentContentChangeWholeDocument{Text: string(disk)})
	c.await(t, "the findings of the reverted buffer", func() bool { return len(c.diags[handlers]) == 2 })

	// Changes in quick succession: one analysis, of the last text.
	c.mu.Lock()
	published := c.published[handlers]
	analyses := countLogged(c.logged, "findings in")
	c.mu.Unlock()
	for i := range 5 {
		text := fixed
		if i == 4 {
			text = buffer
		}
		s.change(t, handlers, &protocol.TextDocumentContentChangeWholeDocument{Text: text})
	}
	c.await(t, "the diagnostics of the last change", func() bool { return c.published[handlers] > published })
	time.Sleep(2 * opts.Debounce) // for any further analysis to show
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.diags[handlers]); n != 1 {
		t.Errorf("%d diagnostics after the last change, want the 1 of its text", n)
	}
	if n := c.published[handlers] - published; n != 1 {
		t.Errorf("%d publications after 5 quick changes, want 1", n)
	}
	if n := countLogged(c.logged, "findings in") - analyses; n != 1 {
		t.Errorf("%d analyses after 5 quick changes, want 1", n)
	}
}

func countLogged(logged []string, substr string) int {
	n := 0
	for _, l := range logged {
		if strings.Contains(l, substr) {
			n++
		}
	}
	return n
}

// A change that cannot be applied to the text the server has is said, and
// the file is analysed from disk rather than from a text that is not the
// editor's.
func TestUnsavedBufferLost(t *testing.T) {
	dir := fixture(t)
	s := start(t, testOptions())
	c := s.client
	s.initialize(t, filepath.Dir(dir))
	handlers := s.open(t, filepath.Join(dir, "handlers.go"))
	c.await(t, "diagnostics of handlers.go", func() bool { return len(c.diags[handlers]) == 2 })

	c.mu.Lock()
	n := c.published[handlers]
	c.mu.Unlock()
	// Removes both findings' lines, then names a line past the end.
	s.change(t, handlers,
		&protocol.TextDocumentContentChangeWholeDocument{Text: "package tombstonefix\n"},
		&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: pos(40, 0), End: pos(40, 0)}, Text: "x"})
	c.await(t, "the message about the lost edits", func() bool {
		return slices.ContainsFunc(c.shown, func(m protocol.ShowMessageParams) bool {
			return m.Type == protocol.MessageTypeError && strings.Contains(m.Message, "lost track of the edits to "+handlers.FsPath())
		})
	})
	c.await(t, "the diagnostics of the file on disk", func() bool { return c.published[handlers] > n })
	c.mu.Lock()
	diags := slices.Clone(c.diags[handlers])
	c.mu.Unlock()
	if len(diags) != 2 {
		t.Fatalf("%d diagnostics, want the 2 of the file on disk", len(diags))
	}
	// Their fixes are for the disk's text, not the editor's.
	if n := len(s.codeActions(t, handlers, diags[0])); n != 0 {
		t.Errorf("%d code actions for a document whose text the server lost", n)
	}
}

// A change that comes while its package is being analysed stops that
// analysis and its go command: the result could not have been published.
// The last text is analysed and published once.
func TestChangeStopsAnalysis(t *testing.T) {
	dir := fixture(t)
	opts := testOptions()
	log := &syncBuffer{}
	opts.Log = log
	s := start(t, opts)
	c := s.client
	s.initialize(t, filepath.Dir(dir))
	path := filepath.Join(dir, "handlers.go")
	disk, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	handlers := s.open(t, path)
	c.await(t, "diagnostics of handlers.go", func() bool { return len(c.diags[handlers]) == 2 })
	c.mu.Lock()
	published := c.published[handlers]
	c.mu.Unlock()
	started := strings.Count(log.String(), ": analysing")

	s.change(t, handlers, &protocol.TextDocumentContentChangeWholeDocument{Text: string(disk) + "\n// one\n"})
	deadline := time.Now().Add(time.Minute)
	for strings.Count(log.String(), ": analysing") == started {
		if time.Now().After(deadline) {
			t.Fatalf("the first change was never analysed; log:\n%s", log)
		}
		time.Sleep(time.Millisecond)
	}
	s.change(t, handlers, &protocol.TextDocumentContentChangeWholeDocument{Text: string(disk) + "\n// two\n"})
	c.await(t, "the last text's diagnostics", func() bool { return c.published[handlers] > published })
	time.Sleep(100 * time.Millisecond) // nothing else to come
	c.mu.Lock()
	got, n := len(c.diags[handlers]), c.published[handlers]
	c.mu.Unlock()
	if got != 2 || n != published+1 {
		t.Errorf("%d diagnostics in %d publications, want 2 in 1", got, n-published)
	}
	if !strings.Contains(log.String(), "a newer change stopped the analysis") {
		t.Errorf("the first change's analysis was not stopped; log:\n%s", log)
	}
	s.stop(t, true, 0)
}
