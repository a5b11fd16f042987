package rbacmarkers

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/analyzers/internal/edit"
)

// addMarkerFixes builds, for the findings of missing permissions, the
// fix that adds the markers: after the last marker controller-gen reads
// in the call's file, else in the package. Every finding with the same
// place gets the same edit, which adds what all of them lack (one line
// per resource, the verbs merged): two fixes inserting different text at
// one place could not both apply.
func (c *checker) addMarkerFixes(fs []finding) map[int]analysis.SuggestedFix {
	out := map[int]analysis.SuggestedFix{}
	anchors := make([]*marker, len(fs))
	type key struct {
		anchor *marker
		res    string // group/plural/sub
	}
	lines := map[key][]string{} // verbs
	var order []key
	resOf := map[key]finding{}
	for i, f := range fs {
		a := c.anchorFor(f.call.Pos())
		if a == nil {
			continue
		}
		anchors[i] = a
		k := key{a, f.res.group + "/" + f.res.plural + "/" + f.sub}
		if _, ok := lines[k]; !ok {
			order = append(order, k)
			resOf[k] = f
		}
		for _, v := range f.missing {
			if !slices.Contains(lines[k], v) {
				lines[k] = append(lines[k], v)
			}
		}
	}
	texts := map[*marker]string{}
	core := c.coreStyle()
	for _, k := range order {
		f := resOf[k]
		indent := edit.Indent(c.pass, k.anchor.comment.Pos())
		texts[k.anchor] += "\n" + indent + markerLine(f.res, f.sub, lines[k], core)
	}
	for i, a := range anchors {
		if a == nil {
			continue
		}
		out[i] = analysis.SuggestedFix{
			Message:   "Add the +kubebuilder:rbac markers the package's calls need",
			TextEdits: []analysis.TextEdit{{Pos: a.comment.End(), End: a.comment.End(), NewText: []byte(texts[a])}},
		}
	}
	return out
}

// anchorFor is the marker after which a missing one is added: the last
// read marker of the file holding pos, else of the package.
func (c *checker) anchorFor(pos token.Pos) *marker {
	tf := c.pass.Fset.File(pos)
	for i := len(c.own) - 1; i >= 0; i-- {
		if c.pass.Fset.File(c.own[i].comment.Pos()) == tf {
			return c.own[i]
		}
	}
	return c.own[len(c.own)-1]
}

// moveMarkerFixes builds, for markers in the doc comment of a top-level
// declaration, the fix that has controller-gen read them: a blank line
// after them when they open the doc comment, else the markers moved above
// it, followed by a blank line. Every marker of one doc comment gets the
// same edits.
func (c *checker) moveMarkerFixes(ms []*marker) map[*marker]analysis.SuggestedFix {
	out := map[*marker]analysis.SuggestedFix{}
	byGroup := map[*ast.CommentGroup][]*marker{}
	var groups []*ast.CommentGroup
	for _, m := range ms {
		if m.doc == nil {
			continue
		}
		if _, ok := byGroup[m.group]; !ok {
			groups = append(groups, m.group)
		}
		byGroup[m.group] = append(byGroup[m.group], m)
	}
	for _, g := range groups {
		marked := byGroup[g]
		fix := analysis.SuggestedFix{Message: "Separate the +kubebuilder:rbac markers from the doc comment"}
		// The markers that open the comment, one after another.
		n := 0
		for n < len(g.List) && n < len(marked) && g.List[n] == marked[n].comment {
			n++
		}
		if n == len(marked) {
			end := marked[n-1].comment.End()
			fix.TextEdits = []analysis.TextEdit{{Pos: end, End: end, NewText: []byte("\n")}}
		} else {
			var moved strings.Builder
			for _, m := range marked {
				moved.WriteString(m.comment.Text + "\n")
				start, next := c.lineOf(m.comment)
				if !start.IsValid() {
					moved.Reset()
					break
				}
				fix.TextEdits = append(fix.TextEdits, analysis.TextEdit{Pos: start, End: next})
			}
			if moved.Len() == 0 {
				continue
			}
			moved.WriteString("\n")
			fix.TextEdits = append(fix.TextEdits, analysis.TextEdit{Pos: g.Pos(), End: g.Pos(), NewText: []byte(moved.String())})
		}
		for _, m := range marked {
			out[m] = fix
		}
	}
	return out
}

// lineOf is the start of a comment's line and the start of the next one,
// when the comment is alone on its line; else invalid positions.
func (c *checker) lineOf(cm *ast.Comment) (start, next token.Pos) {
	tf := c.pass.Fset.File(cm.Pos())
	line := tf.Line(cm.Pos())
	if line >= tf.LineCount() {
		return token.NoPos, token.NoPos
	}
	start, next = tf.LineStart(line), tf.LineStart(line+1)
	if cm.Pos() != start || cm.End()+1 != next {
		return token.NoPos, token.NoPos
	}
	return start, next
}
