package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ctrllint/ctrllint/internal/driver"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// screen replays what was written to a terminal, one line wide enough:
// "\r" goes back to the start of the line, "\x1b[K" clears from the
// cursor on, "\n" starts a new line. It returns the lines as the terminal
// shows them at the end.
func screen(out string) []string {
	lines := []string{""}
	col := 0
	for i := 0; i < len(out); {
		cur := &lines[len(lines)-1]
		switch {
		case strings.HasPrefix(out[i:], "\x1b[K"):
			*cur = string([]rune(*cur)[:col])
			i += 3
			continue
		case out[i] == '\r':
			col = 0
		case out[i] == '\n':
			lines = append(lines, "")
			col = 0
		default:
			r, size := utf8.DecodeRuneInString(out[i:])
			rs := []rune(*cur)
			if col < len(rs) {
				rs[col] = r
			} else {
				rs = append(rs, r)
			}
			*cur = string(rs)
			col++
			i += size
			continue
		}
		i++
	}
	return lines
}

func TestScreen(t *testing.T) {
	got := screen("\rabcdef\x1b[K\rxy\x1b[Kz\nfinding\n")
	if want := []string{"xyz", "finding", ""}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("screen: %q, want %q", got, want)
	}
}

// The status line is redrawn at most once an interval however often its
// text changes, not at all when it does not change, erased before
// anything written through it (which is then on a line of its own), and
// gone once closed.
func TestStatusLine(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Unix(1000, 0)}
	n := 0
	l := &statusLine{w: &out, width: func() int { return 80 }, now: clock.now, interval: 100 * time.Millisecond,
		text: func(time.Time) string { return fmt.Sprintf("decoding %d", n) }}
	draws := func() int { return strings.Count(out.String(), "\x1b[K") }

	l.redraw()
	if got := out.String(); got != "\rdecoding 0\x1b[K" {
		t.Fatalf("first draw: %q", got)
	}
	for range 1000 { // a burst of updates within 50 ms
		n++
		clock.advance(50 * time.Microsecond)
		l.redraw()
	}
	if draws() != 1 {
		t.Errorf("%d draws within the interval, want 1: %q", draws(), out.String())
	}
	clock.advance(100 * time.Millisecond)
	l.redraw()
	if draws() != 2 || !strings.HasSuffix(out.String(), "\rdecoding 1000\x1b[K") {
		t.Errorf("after the interval, not redrawn with the latest text: %q", out.String())
	}
	clock.advance(time.Second)
	l.redraw() // the same text
	if draws() != 2 {
		t.Errorf("redrawn with the same text: %q", out.String())
	}

	fmt.Fprintf(l, "ctrllint: a problem\n")
	if s := screen(out.String()); fmt.Sprint(s) != fmt.Sprint([]string{"ctrllint: a problem", ""}) {
		t.Errorf("a message after the line: screen %q", s)
	}
	clock.advance(time.Second)
	l.redraw()
	if s := screen(out.String()); len(s) != 2 || s[1] != "decoding 1000" {
		t.Errorf("not drawn again after the message: screen %q", s)
	}
	// A message that does not end its line is not overwritten.
	fmt.Fprint(l, "half")
	n++
	clock.advance(time.Second)
	l.redraw()
	if s := screen(out.String()); s[1] != "half" {
		t.Errorf("a half-written message was overwritten: screen %q", s)
	}
	fmt.Fprint(l, " a line\n")

	l.close()
	clock.advance(time.Second)
	l.redraw()
	fmt.Fprint(l, "finding\n")
	if s := screen(out.String()); fmt.Sprint(s) != fmt.Sprint([]string{"ctrllint: a problem", "half a line", "finding", ""}) {
		t.Errorf("at the end, screen %q", s)
	}
}

// The line never reaches the terminal's last column, whatever its width,
// so that it never wraps onto a line "\r" cannot go back to.
func TestStatusLineWidth(t *testing.T) {
	for _, width := range []int{0, 1, 2, 10, 40, 200} {
		var out bytes.Buffer
		text := "ctrllint: [12s] analysing packages 3 of 62 (40 from cache) in k8s.io/kubernetes/pkg/controller/…"
		l := &statusLine{w: &out, width: func() int { return width }, now: time.Now, interval: time.Millisecond, text: func(time.Time) string { return text }}
		l.redraw()
		s := screen(out.String())
		if len(s) != 1 || utf8.RuneCountInString(s[0]) >= max(width, 1) {
			t.Errorf("width %d: screen %q", width, s)
		}
		if width > utf8.RuneCountInString(text) && s[0] != text {
			t.Errorf("width %d: %q, want the whole text", width, s[0])
		}
		if width == 40 && !strings.HasSuffix(s[0], "…") {
			t.Errorf("width %d: cut without saying so: %q", width, s[0])
		}
	}
}

// What the line says in each phase, with the time first so that a narrow
// terminal keeps it.
func TestProgressText(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	r := newProgressReport(nil, true, 7, clock.now)
	tell := r.hook()
	if got := r.text(clock.t); got != "" {
		t.Errorf("before anything is told: %q", got)
	}
	for _, tc := range []struct {
		after time.Duration
		p     driver.Progress
		want  string
	}{
		{0, driver.Progress{Stage: driver.Listing}, "ctrllint: [0s] listing packages (go list)"},
		{2 * time.Second, driver.Progress{Stage: driver.Analysing, Listed: 10, Roots: 3, Analysed: 1, Cached: 1}, "ctrllint: [2s] analysing packages 1 of 3 (1 from cache)"},
		{time.Second, driver.Progress{Stage: driver.Listing, Export: true, Listed: 10, Roots: 3, Analysed: 1, Cached: 1}, "ctrllint: [3s] listing packages and building their dependencies (go list -export)"},
		{65 * time.Second, driver.Progress{Stage: driver.Analysing, Export: true, Listed: 300, Decoded: 12, ToDecode: 250, Roots: 62, Analysed: 1, Cached: 1}, "ctrllint: [1m08s] decoding dependencies 12 of 250, analysing packages 1 of 62 (1 from cache)"},
		{time.Second, driver.Progress{Stage: driver.Analysing, Export: true, Listed: 300, Decoded: 250, ToDecode: 250, Roots: 62, Analysed: 62, Cached: 1}, "ctrllint: [1m09s] analysing packages 62 of 62 (1 from cache)"},
	} {
		clock.advance(tc.after)
		tell(tc.p)
		if got := r.text(clock.t); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
	r.fixes()
	clock.advance(500 * time.Millisecond)
	if got := r.text(clock.t); got != "ctrllint: [1m09s] writing fixes" {
		t.Errorf("writing fixes: %q", got)
	}
	r.fixed()
	r.stopping = true // as the signal's AfterFunc sets it
	if got := r.text(clock.t); !strings.HasPrefix(got, "ctrllint: [1m09s] stopping: ") {
		t.Errorf("after a signal: %q", got)
	}
	// Listing 2 s, then 1 s from the cache, listing again 65 s, decoding
	// and analysing 1 s.
	want := "listed 300 packages in 67.0s, decoded 250 of 250 dependencies in 1.0s, analysed 62 of 62 packages (1 from cache) in 2.0s, wrote fixes in 0.5s; 7 analyzers; total 69.5s"
	if got := r.times.summary(7, clock.t); got != want {
		t.Errorf("summary:\n%s\nwant\n%s", got, want)
	}
}

// A run that ends while listing (the go command failed) still says how
// long it listed; one that took everything from the cache decoded nothing.
func TestTimingsSummary(t *testing.T) {
	start := time.Unix(1000, 0)
	tm := timings{start: start}
	tm.update(driver.Progress{Stage: driver.Listing}, start)
	if got, want := tm.summary(3, start.Add(1500*time.Millisecond)), "listing for 1.5s; 3 analyzers; total 1.5s"; got != want {
		t.Errorf("failed listing: %q, want %q", got, want)
	}
	tm.update(driver.Progress{Stage: driver.Analysing, Listed: 40, Roots: 5, Analysed: 5, Cached: 5}, start.Add(time.Second))
	if got, want := tm.summary(3, start.Add(1100*time.Millisecond)), "listed 40 packages in 1.0s, analysed 5 of 5 packages (5 from cache) in 0.0s; 3 analyzers; total 1.1s"; got != want {
		t.Errorf("from the cache: %q, want %q", got, want)
	}
}
