package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// median of xs (the mean of the middle two when len is even); NaN when
// empty.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// ratio formats a/b as "1.23x"; "–" when either is missing or b is 0.
func ratio(a, b float64) string {
	if math.IsNaN(a) || math.IsNaN(b) || b == 0 {
		return "–"
	}
	r := a / b
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0fx", r)
	case r >= 10:
		return fmt.Sprintf("%.1fx", r)
	}
	return fmt.Sprintf("%.2fx", r)
}

// seconds formats a time in seconds: "850 ms" below a second, "12.3 s"
// above; "–" when missing.
func seconds(s float64) string {
	switch {
	case math.IsNaN(s):
		return "–"
	case s < 1:
		return fmt.Sprintf("%.0f ms", s*1000)
	case s < 100:
		return fmt.Sprintf("%.2f s", s)
	}
	return fmt.Sprintf("%.0f s", s)
}

// megabytes formats a byte count in MB (10^6 bytes would flatter; these
// are MiB, as ps and /usr/bin/time report); "–" when missing.
func megabytes(b float64) string {
	if math.IsNaN(b) {
		return "–"
	}
	return fmt.Sprintf("%.0f MB", b/(1<<20))
}

// spread formats the range of xs with format f: "(11.9–13.0)"; empty for
// fewer than two values.
func spread(xs []float64, f func(float64) string) string {
	if len(xs) < 2 {
		return ""
	}
	lo, hi := f(slices.Min(xs)), f(slices.Max(xs))
	// "(11.9–13.0 s)" when both ends have the same unit.
	if i, j := strings.LastIndexByte(lo, ' '), strings.LastIndexByte(hi, ' '); i > 0 && j > 0 && lo[i:] == hi[j:] {
		lo = lo[:i]
	}
	return fmt.Sprintf(" (%s–%s)", lo, hi)
}

// A table is rendered as Markdown with its columns padded, so that the same
// text reads in a terminal and pastes into a document.
type table struct {
	header []string
	right  []bool // right-align column i (numbers)
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) String() string {
	n := len(t.header)
	width := make([]int, n)
	for i, h := range t.header {
		width[i] = max(runeLen(h), 3) // "---" is the shortest separator
	}
	for _, r := range t.rows {
		for i := 0; i < n && i < len(r); i++ {
			width[i] = max(width[i], runeLen(r[i]))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for i := 0; i < n; i++ {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			pad := strings.Repeat(" ", width[i]-runeLen(c))
			if i < len(t.right) && t.right[i] {
				b.WriteString(" " + pad + c + " |")
			} else {
				b.WriteString(" " + c + pad + " |")
			}
		}
		b.WriteString("\n")
	}
	line(t.header)
	b.WriteString("|")
	for i := 0; i < n; i++ {
		d := strings.Repeat("-", width[i])
		if i < len(t.right) && t.right[i] {
			d = d[1:] + ":"
		}
		b.WriteString(" " + d + " |")
	}
	b.WriteString("\n")
	for _, r := range t.rows {
		line(r)
	}
	return b.String()
}

func runeLen(s string) int { return len([]rune(s)) }

// A row is one tool in one state on one target, with its samples.
type row struct {
	Tool    string   `json:"tool"`
	State   string   `json:"state"`
	Samples []sample `json:"samples"`
}

func (r *row) label() string {
	if r.State == stateNone {
		return r.Tool
	}
	return r.Tool + " (" + r.State + ")"
}

// good are the samples of successful runs.
func (r *row) good() []sample {
	var out []sample
	for _, s := range r.Samples {
		if s.Err == "" {
			out = append(out, s)
		}
	}
	return out
}

func (r *row) values(f func(sample) float64) []float64 {
	var out []float64
	for _, s := range r.good() {
		out = append(out, f(s))
	}
	return out
}

func wallOf(s sample) float64   { return s.Wall.Seconds() }
func cpuOf(s sample) float64    { return s.CPU.Seconds() }
func treeOf(s sample) float64   { return float64(s.TreeRSS) }
func maxRSSOf(s sample) float64 { return float64(s.MaxRSS) }
func (r *row) wall() float64    { return median(r.values(wallOf)) }
func (r *row) treeRSS() float64 { return median(r.values(treeOf)) }
func (r *row) cpu() float64     { return median(r.values(cpuOf)) }
func (r *row) failures() int    { return len(r.Samples) - len(r.good()) }

// A targetResult is the side-by-side comparison on one corpus entry.
type targetResult struct {
	Entry    string   `json:"entry"`
	Dir      string   `json:"dir"`
	Patterns []string `json:"patterns"`
	Size     size     `json:"size"`
	Rows     []*row   `json:"rows"`
	// ExportBytes is the size of ctrllint's export data after its first
	// run (the empty-cache scenario).
	ExportBytes int64 `json:"exportBytes,omitempty"`
}

// row returns the row of tool in state, creating it.
func (t *targetResult) row(tool, state string) *row {
	for _, r := range t.Rows {
		if r.Tool == tool && r.State == state {
			return r
		}
	}
	r := &row{Tool: tool, State: state}
	t.Rows = append(t.Rows, r)
	return r
}

func (t *targetResult) find(tool, state string) *row {
	for _, r := range t.Rows {
		if r.Tool == tool && r.State == state {
			return r
		}
	}
	return nil
}

// staticcheckFor is the staticcheck row r is compared with: the same state,
// cold for tools without a cache of their own.
func (t *targetResult) staticcheckFor(r *row) *row {
	state := r.State
	if state == stateNone {
		state = stateCold
	}
	return t.find(toolStaticcheck, state)
}

func nanRow(r *row, f func(*row) float64) float64 {
	if r == nil {
		return math.NaN()
	}
	return f(r)
}

// table renders the comparison.
func (t *targetResult) table() *table {
	tb := &table{
		header: []string{"tool", "wall", "×floor", "×staticcheck", "CPU", "×floor", "peak RSS (tree)", "×floor", "×staticcheck", "peak RSS (largest process)", "runs"},
		right:  []bool{false, true, true, true, true, true, true, true, true, true, true},
	}
	floor := t.find(toolFloor, stateNone)
	for _, r := range t.Rows {
		sc := t.staticcheckFor(r)
		walls := r.values(wallOf)
		runs := fmt.Sprint(len(r.good()))
		if n := r.failures(); n > 0 {
			runs += fmt.Sprintf(" (+%d failed)", n)
		}
		tb.add(
			r.label(),
			seconds(median(walls))+spread(walls, seconds),
			ratio(r.wall(), nanRow(floor, (*row).wall)),
			ratio(r.wall(), nanRow(sc, (*row).wall)),
			seconds(r.cpu()),
			ratio(r.cpu(), nanRow(floor, (*row).cpu)),
			megabytes(r.treeRSS()),
			ratio(r.treeRSS(), nanRow(floor, (*row).treeRSS)),
			ratio(r.treeRSS(), nanRow(sc, (*row).treeRSS)),
			megabytes(median(r.values(maxRSSOf))),
			runs,
		)
	}
	return tb
}

// size is how much code a target's patterns match.
type size struct {
	Packages int   `json:"packages"`
	Files    int   `json:"files"` // non-test Go files (GoFiles and CgoFiles)
	Lines    int   `json:"lines"`
	Bytes    int64 `json:"bytes"`
}

// A scalePoint is the floor and ctrllint (cold) on one corpus entry, with
// their samples.
type scalePoint struct {
	Entry string `json:"entry"`
	Size  size   `json:"size"`
	Rows  []*row `json:"rows"`
}

func newScalePoint(t *targetResult) scalePoint {
	p := scalePoint{Entry: t.Entry, Size: t.Size}
	for _, r := range t.Rows {
		if r.Tool == toolFloor || r.Tool == toolCtrllint && r.State == stateCold {
			p.Rows = append(p.Rows, r)
		}
	}
	return p
}

func (p scalePoint) target() *targetResult {
	return &targetResult{Entry: p.Entry, Size: p.Size, Rows: p.Rows}
}

func (p scalePoint) floor() float64 {
	return nanRow(p.target().find(toolFloor, stateNone), (*row).wall)
}

func (p scalePoint) ctrllint() float64 {
	return nanRow(p.target().find(toolCtrllint, stateCold), (*row).wall)
}

func (p scalePoint) runs() int {
	if r := p.target().find(toolCtrllint, stateCold); r != nil {
		return len(r.good())
	}
	return 0
}

// notes are the failures, and the floor's load errors.
func (p scalePoint) notes() string { return p.target().notes(false) }

// fit is the least-squares line y = a + b·x and its r².
func fit(xs, ys []float64) (a, b, r2 float64, ok bool) {
	n := float64(len(xs))
	if len(xs) < 3 || len(xs) != len(ys) {
		return 0, 0, 0, false
	}
	var sx, sy, sxx, sxy, syy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
		syy += ys[i] * ys[i]
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0, 0, 0, false
	}
	b = (n*sxy - sx*sy) / den
	a = (sy - b*sx) / n
	vy := n*syy - sy*sy
	if vy == 0 {
		return a, b, 1, true
	}
	r := (n*sxy - sx*sy) / math.Sqrt(den*vy)
	return a, b, r * r, true
}

func scaleTable(points []scalePoint) *table {
	tb := &table{
		header: []string{"entry", "packages", "lines", "floor", "ctrllint (cold)", "floor / package", "ctrllint / package", "ctrllint / 1k lines", "×floor", "runs"},
		right:  []bool{false, true, true, true, true, true, true, true, true, true},
	}
	for _, p := range points {
		per := func(s, n float64) string {
			if n == 0 || math.IsNaN(s) {
				return "–"
			}
			return fmt.Sprintf("%.0f ms", s*1000/n)
		}
		pkgs, klines := float64(p.Size.Packages), float64(p.Size.Lines)/1000
		tb.add(p.Entry, fmt.Sprint(p.Size.Packages), fmt.Sprint(p.Size.Lines),
			seconds(p.floor()), seconds(p.ctrllint()),
			per(p.floor(), pkgs), per(p.ctrllint(), pkgs),
			per(p.ctrllint(), klines),
			ratio(p.ctrllint(), p.floor()), fmt.Sprint(p.runs()))
	}
	return tb
}

// scaleFit describes how ctrllint's time grows with packages and lines.
func scaleFit(points []scalePoint) string {
	var pk, ln, ys []float64
	for _, p := range points {
		if math.IsNaN(p.ctrllint()) {
			continue
		}
		pk = append(pk, float64(p.Size.Packages))
		ln = append(ln, float64(p.Size.Lines)/1000)
		ys = append(ys, p.ctrllint())
	}
	var out []string
	if a, b, r2, ok := fit(pk, ys); ok {
		out = append(out, fmt.Sprintf("ctrllint (cold) ≈ %.2f s + %.0f ms × packages (r² = %.2f)", a, b*1000, r2))
	}
	if a, b, r2, ok := fit(ln, ys); ok {
		out = append(out, fmt.Sprintf("ctrllint (cold) ≈ %.2f s + %.0f ms × 1k lines (r² = %.2f)", a, b*1000, r2))
	}
	if len(out) == 0 {
		return "(a fit needs at least three entries)"
	}
	return strings.Join(out, "; ")
}

// lspResult is the editor server's timing on one package.
type lspResult struct {
	Name     string          `json:"name"`
	Dir      string          `json:"dir"`
	File     string          `json:"file"`
	Open     time.Duration   `json:"open"`  // didOpen → diagnostics, the server's first analysis
	Saves    []time.Duration `json:"saves"` // didSave → diagnostics
	Load     []time.Duration `json:"load"`  // the server's own split of each save, from its log
	Analysis []time.Duration `json:"analysis"`
	MaxRSS   int64           `json:"maxRSS"`
	Err      string          `json:"err,omitempty"`
}

func durations(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = d.Seconds()
	}
	return out
}

func lspTable(rs []lspResult) *table {
	tb := &table{
		header: []string{"package", "open → diagnostics", "save → diagnostics (warm)", "of which load", "of which analysis", "saves", "server peak RSS"},
		right:  []bool{false, true, true, true, true, true, true},
	}
	for _, r := range rs {
		if r.Err != "" {
			tb.add(r.Name, "failed: "+r.Err, "", "", "", "", "")
			continue
		}
		saves := durations(r.Saves)
		tb.add(r.Name, seconds(r.Open.Seconds()), seconds(median(saves))+spread(saves, seconds),
			seconds(median(durations(r.Load))), seconds(median(durations(r.Analysis))),
			fmt.Sprint(len(r.Saves)), megabytes(float64(r.MaxRSS)))
	}
	return tb
}

// verdict is one of the targets, checked.
type verdict struct {
	Target   string
	Measured string
	Met      bool
	Known    bool // false: not measured in this run
}

func (v verdict) String() string {
	switch {
	case !v.Known:
		return fmt.Sprintf("- %s: not measured (%s)", v.Target, v.Measured)
	case v.Met:
		return fmt.Sprintf("- %s: **met** (%s)", v.Target, v.Measured)
	}
	return fmt.Sprintf("- %s: **not met** (%s)", v.Target, v.Measured)
}

// verdicts checks the targets against the results.
func verdicts(targets []*targetResult, lsp []lspResult, editor *editorResult) []verdict {
	var out []verdict
	for _, t := range targets {
		floor := t.find(toolFloor, stateNone)
		cold := t.find(toolCtrllint, stateCold)
		warm := t.find(toolCtrllint, stateWarm)
		sc := t.find(toolStaticcheck, stateCold)
		if cold != nil && floor != nil {
			x, f := cold.wall(), floor.wall()
			out = append(out, verdict{
				Target:   t.Entry + ": cold standalone run ≤ 1.3× the floor (wall)",
				Measured: ratio(x, f) + ": " + seconds(x) + " vs " + seconds(f) + "; CPU " + ratio(cold.cpu(), floor.cpu()),
				Met:      x <= 1.3*f, Known: !math.IsNaN(x / f),
			})
		}
		if cold != nil && sc != nil {
			x, s := cold.wall(), sc.wall()
			out = append(out, verdict{
				Target:   t.Entry + ": cold standalone run faster than staticcheck (cold)",
				Measured: seconds(x) + " vs " + seconds(s),
				Met:      x < s, Known: !math.IsNaN(x / s),
			})
			xm, sm := cold.treeRSS(), sc.treeRSS()
			out = append(out, verdict{
				Target:   t.Entry + ": cold standalone peak memory below staticcheck's (cold)",
				Measured: megabytes(xm) + " vs " + megabytes(sm),
				Met:      xm < sm, Known: !math.IsNaN(xm / sm),
			})
		}
		if warm != nil && strings.HasPrefix(t.Entry, "kubernetes") {
			x := warm.wall()
			out = append(out, verdict{
				Target:   t.Entry + ": warm re-run with nothing changed < 1 s",
				Measured: seconds(x),
				Met:      x < 1, Known: !math.IsNaN(x),
			})
		}
	}
	for _, r := range lsp {
		if r.Err != "" {
			out = append(out, verdict{Target: r.Name + ": editor save → diagnostics < 1 s warm", Measured: "failed: " + r.Err})
			continue
		}
		x := median(durations(r.Saves))
		out = append(out, verdict{
			Target:   r.Name + ": editor save → diagnostics < 1 s warm",
			Measured: "median " + seconds(x),
			Met:      x < 1, Known: !math.IsNaN(x),
		})
	}
	if editor != nil {
		out = append(out, editorVerdict(editor))
	}
	return out
}
