package suppression

import (
	"fmt"
	"go/ast"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/define"
	"github.com/ctrllint/ctrllint/analyzers/internal/directive"
)

// Name is the analyzer's name, which only a file-ignore directive may name.
const Name = "suppression"

// Definition defines the analyzer, knowing ctrllint's analyzers: see
// doc.go.
var Definition = Define(known)

// Analyzer reports mistyped ctrllint directives, knowing ctrllint's
// analyzers.
var Analyzer = Definition.Analyzer

// Known returns the analyzer names Analyzer accepts in directives, besides
// its own.
func Known() []string { return slices.Clone(known) }

// Define defines the suppression analyzer for a suite whose other
// analyzers have the given names.
func Define(names []string) *define.Definition {
	names = slices.Clone(names)
	return define.New(define.Spec{
		Name:      Name,
		RuleName:  "MistypedSuppression",
		DocSource: DocSource,
		Run:       func(pass *analysis.Pass) (any, error) { return nil, run(pass, names) },
		// It reports the directives; a directive cannot silence that
		// report except by the file-ignore it understands itself.
		OwnDirectives: true,
	})
}

const prefix = "ctrllint:"

// verbs are the directives' verbs, after "//ctrllint:".
var verbs = []string{"ignore", "file-ignore"}

func run(pass *analysis.Pass, names []string) error {
	for _, f := range pass.Files {
		if directive.IsGenerated(pass.Fset, f) {
			continue
		}
		var found []analysis.Diagnostic
		var silencers []*ast.Comment // valid file-ignore directives naming this analyzer
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				d, silencer := check(c, names)
				if d != nil {
					found = append(found, *d)
				}
				if silencer {
					silencers = append(silencers, c)
				}
			}
		}
		if len(silencers) > 0 {
			if len(found) == 0 {
				for _, c := range silencers {
					pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: "directive",
						Message: "ctrllint:file-ignore directive for suppression suppresses nothing: remove it"})
				}
			}
			continue
		}
		for _, d := range found {
			pass.Report(d)
		}
	}
	return nil
}

// check examines one comment. It returns what is wrong with it, if it is
// or looks like a ctrllint directive, and whether it is a file-ignore
// directive for this analyzer, with a reason, which silences the file.
func check(c *ast.Comment, names []string) (*analysis.Diagnostic, bool) {
	report := func(format string, args ...any) *analysis.Diagnostic {
		return &analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: "directive", Message: fmt.Sprintf(format, args...)}
	}
	if verb, dnames, reason, ok := directive.Parse(c.Text); ok {
		verb = strings.TrimPrefix(verb, "//")
		if len(dnames) == 0 {
			return report("%s directive names no analyzer: write //%s NAME[,NAME...] reason", verb, verb), false
		}
		var unknown []string
		silencer := false
		for _, n := range dnames {
			switch {
			case slices.Contains(names, n):
			case n == Name && verb == "ctrllint:file-ignore":
				if reason == "" {
					return report("ctrllint:file-ignore directive for suppression needs a reason after the analyzer name"), false
				}
				silencer = true
			case n == Name:
				return report("findings of suppression can only be suppressed for a whole file: //ctrllint:file-ignore suppression reason"), false
			default:
				unknown = append(unknown, n)
			}
		}
		if len(unknown) == 0 {
			return nil, silencer
		}
		var msgs []string
		for _, n := range unknown {
			m := fmt.Sprintf("%q", n)
			if s := suggest(n, append(slices.Clone(names), Name)); s != "" {
				m += fmt.Sprintf(" (did you mean %q?)", s)
			}
			msgs = append(msgs, m)
		}
		what := "unknown analyzer"
		if len(unknown) > 1 {
			what = "unknown analyzers"
		}
		return report("%s directive names %s %s: it suppresses nothing for %s (analyzers: %s)",
			verb, what, strings.Join(msgs, ", "), them(len(unknown)), strings.Join(names, ", ")), silencer
	}
	return nearMiss(c, names, report), false
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// nearMiss reports a comment that was meant as a directive but is not one
// by the convention the Go toolchain keeps for directives (//go:generate):
// a line comment, no space after //, all lower case.
func nearMiss(c *ast.Comment, names []string, report func(string, ...any) *analysis.Diagnostic) *analysis.Diagnostic {
	text := c.Text
	block := strings.HasPrefix(text, "/*")
	body := strings.TrimSuffix(text[2:], "*/")
	trimmed := strings.TrimLeft(body, " \t")
	if len(trimmed) < len(prefix) || !strings.EqualFold(trimmed[:len(prefix)], prefix) {
		return nil
	}
	written, _, _ := strings.Cut(trimmed[len(prefix):], " ")
	written, _, _ = strings.Cut(written, "\t")
	written, _, _ = strings.Cut(written, "\n")
	exact := !block && trimmed[:len(prefix)] == prefix && len(trimmed) == len(body) // //ctrllint:VERB
	verb := ""
	switch {
	case slices.Contains(verbs, written):
		verb = written
	case slices.Contains(verbs, strings.ToLower(written)):
		verb = strings.ToLower(written)
	default:
		verb = suggest(written, verbs)
	}
	if !exact && !namesNext(trimmed[len(prefix)+len(written):], append(slices.Clone(names), Name)) {
		return nil // prose that mentions ctrllint ("// ctrllint:ignore directives need a reason")
	}
	if verb == "" {
		if !exact {
			return nil
		}
		return report("unknown ctrllint directive %q: it suppresses nothing (directives are //ctrllint:ignore and //ctrllint:file-ignore)", "//"+prefix+written)
	}
	shown := text[:2+len(body)-len(trimmed)+len(prefix)+len(written)] // up to the verb
	var why string
	switch {
	case block:
		why = "directives are // line comments"
	case len(trimmed) != len(body):
		why = "directives have no space after //"
	case trimmed[:len(prefix)] != prefix || written != verb && strings.ToLower(written) == verb:
		why = "directives are lower case"
	default:
		return report("unknown ctrllint directive %q: it suppresses nothing (did you mean //ctrllint:%s?)", "//"+prefix+written, verb)
	}
	return report("comment %q is not a ctrllint directive (%s): it suppresses nothing; write //ctrllint:%s", shown, why, verb)
}

// namesNext reports whether rest, what follows a near-miss's verb, reads
// as a directive's: nothing, or a list of names one of which is (close to)
// an analyzer's.
func namesNext(rest string, names []string) bool {
	fields := strings.Fields(strings.TrimSuffix(rest, "*/"))
	if len(fields) == 0 {
		return true
	}
	for n := range strings.SplitSeq(fields[0], ",") {
		if n != "" && (slices.Contains(names, n) || suggest(n, names) != "") {
			return true
		}
	}
	return false
}

// suggest returns the candidate a name was probably meant to be: equal
// but for case, or at most two edits away (one for short names), or "".
func suggest(name string, candidates []string) string {
	lower := strings.ToLower(name)
	best, bestDist := "", 3
	if len(name) <= 4 {
		bestDist = 2
	}
	for _, c := range candidates {
		if lower == c {
			return c
		}
		if d := distance(lower, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
