package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/ctrllint/ctrllint/internal/driver"
)

// timings are how long each phase of a run took, from what the driver
// says of its progress and when (driver.Config.Progress), for -v's
// summary.
type timings struct {
	start  time.Time
	last   driver.Progress
	lastAt time.Time
	told   bool

	listing   time.Duration // both listings, when the result cache had some roots
	listed    int           // the most packages a listing found
	decoding  time.Time     // when decoding started, zero if it did not
	decoded   time.Duration // until the last dependency decoded
	analysing time.Duration // from the listing's end to the last root done
	fixing    time.Time     // when -fix began writing, zero if it did not
	fixed     time.Duration
}

// update records p, told at now. The driver tells nothing while the go
// command runs, and the last update is the last root done: the time
// between two updates belongs to the stage of the first.
func (t *timings) update(p driver.Progress, now time.Time) {
	prev := t.last
	if t.told {
		switch prev.Stage {
		case driver.Listing:
			t.listing += now.Sub(t.lastAt)
		case driver.Analysing:
			t.analysing += now.Sub(t.lastAt)
		}
	}
	if p.Stage == driver.Analysing {
		t.listed = max(t.listed, p.Listed)
		if p.ToDecode > 0 && t.decoding.IsZero() {
			t.decoding = now
		}
		if p.Decoded > prev.Decoded {
			t.decoded = now.Sub(t.decoding)
		}
	}
	t.last, t.lastAt, t.told = p, now, true
}

// summary is -v's line, without the "ctrllint: " prefix:
//
//	listed 312 packages in 4.1s, decoded 250 of 250 dependencies in 2.3s, analysed 62 of 62 packages (40 from cache) in 3.0s, wrote fixes in 0.1s; 15 analyzers; total 9.6s
//
// leaving out the phases the run did not reach.
func (t *timings) summary(analyzers int, end time.Time) string {
	var parts []string
	listing := t.listing
	if t.told && t.last.Stage == driver.Listing {
		listing += end.Sub(t.lastAt) // the run ended while listing
	}
	switch {
	case t.listed > 0:
		parts = append(parts, fmt.Sprintf("listed %d packages in %s", t.listed, seconds(listing)))
	case t.told:
		parts = append(parts, fmt.Sprintf("listing for %s", seconds(listing)))
	}
	if !t.decoding.IsZero() {
		parts = append(parts, fmt.Sprintf("decoded %d of %d dependencies in %s", t.last.Decoded, t.last.ToDecode, seconds(t.decoded)))
	}
	if t.last.FromSource > 0 {
		// Within the analysing time: units of their own, before
		// their importers.
		parts = append(parts, fmt.Sprintf("type-checked %d the go command had not built from source", t.last.FromSource))
	}
	if t.last.Roots > 0 {
		facts := ""
		if t.last.Summaries > 0 {
			facts = fmt.Sprintf(" and %d more for their facts", t.last.Summaries)
		}
		parts = append(parts, fmt.Sprintf("analysed %d of %d packages (%d from cache)%s in %s", t.last.Analysed, t.last.Roots, t.last.Cached, facts, seconds(t.analysing)))
	}
	if !t.fixing.IsZero() {
		parts = append(parts, fmt.Sprintf("wrote fixes in %s", seconds(t.fixed)))
	}
	s := strings.Join(parts, ", ")
	if s != "" {
		s += "; "
	}
	return s + fmt.Sprintf("%d analyzers; total %s", analyzers, seconds(end.Sub(t.start)))
}

func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1fs", d.Seconds())
}
