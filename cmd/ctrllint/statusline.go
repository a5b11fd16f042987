package main

import (
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// A statusLine is one line of a terminal, rewritten in place ("\r", the
// text, then clear to the end of the line), that whatever else is written
// to the terminal through it first erases: stdout and stderr share the
// terminal, and a finding or an error must never be printed after half a
// status line. It knows nothing of what the text says (progress.go).
type statusLine struct {
	mu       sync.Mutex
	w        io.Writer              // the terminal
	width    func() int             // the terminal's columns now
	now      func() time.Time       // the clock, a fake one in tests
	interval time.Duration          // the least time between two redraws
	text     func(time.Time) string // what the line should show now, "" for nothing
	shown    string                 // what it shows, "" when erased
	drawn    time.Time              // when it was last drawn
	midLine  bool                   // the last write through it did not end a line
	closed   bool
}

// redraw shows the text if it changed and the line was not drawn within
// the interval: an update may come for every package decoded, hundreds a
// second, and a terminal redrawing that often makes the run slower and the
// line unreadable.
func (l *statusLine) redraw() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.midLine {
		return
	}
	now := l.now()
	if !l.drawn.IsZero() && now.Sub(l.drawn) < l.interval {
		return
	}
	text := fit(l.text(now), l.width())
	if text == l.shown {
		return
	}
	if text == "" {
		l.erase()
		return
	}
	io.WriteString(l.w, "\r"+text+"\x1b[K")
	l.shown, l.drawn = text, now
}

// erase clears the line if it shows something. Called with mu held.
func (l *statusLine) erase() {
	if l.shown != "" {
		io.WriteString(l.w, "\r\x1b[K")
		l.shown = ""
	}
}

// Write erases the line and writes p: what the command prints on stderr
// goes through here while the line may be shown. The line is drawn again
// at the next redraw, unless p left a line unfinished, which a redraw
// would overwrite.
func (l *statusLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.erase()
	if len(p) > 0 {
		l.midLine = p[len(p)-1] != '\n'
	}
	return l.w.Write(p)
}

// close erases the line for good; later writes pass through.
func (l *statusLine) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.erase()
	l.closed = true
}

// fit cuts text to fewer columns than width, so that the terminal never
// wraps it onto a second line, which "\r" could not take back; a cut text
// ends with "…". Each rune counts as a column: the text is ASCII but for
// package paths, which are too.
func fit(text string, width int) string {
	text = strings.ReplaceAll(text, "\n", " ")
	if width < 2 {
		return ""
	}
	max := width - 1
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	runes := []rune(text)
	return string(runes[:max-1]) + "…"
}
