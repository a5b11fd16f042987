package rbacmarkers

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// A marker is one `// +kubebuilder:rbac:...` comment line of a file.
type marker struct {
	comment *ast.Comment
	group   *ast.CommentGroup
	rule    rule
	parsed  bool // the arguments parse (controller-gen fails on a marker that does not)
	// read is whether controller-gen takes it as a package marker, the
	// only place it looks for rbac markers.
	read bool
	// where says, for a marker not read, where it sits instead: "the doc
	// comment of func Reconcile", "the body of func Reconcile".
	where string
	// doc is the declaration whose doc comment holds a marker not read,
	// when moving the marker above that comment would have it read: a
	// top-level func, or a top-level type, var or const declaration.
	doc ast.Node
}

// isRBAC reports whether a comment is an rbac marker as controller-gen
// looks markers up: a line comment whose text, trimmed, starts with "+",
// and whose name (up to the first "=", less its last ":"-separated part
// when it has one) is kubebuilder:rbac.
func isRBAC(text string) bool {
	body, ok := markerText(text)
	if !ok {
		return false
	}
	name, _, _ := splitName(body)
	return name == "kubebuilder:rbac"
}

// markerText is a line comment's text after "//", trimmed, when it is a
// marker (starts with "+").
func markerText(text string) (string, bool) {
	if !strings.HasPrefix(text, "//") {
		return "", false // a /* */ comment is never a marker
	}
	body := strings.TrimSpace(text[2:])
	if !strings.HasPrefix(body, "+") {
		return "", false
	}
	return body, true
}

// splitName splits a marker "+a:b:c=x,d=y" into its name ("a:b"), the
// name with its last part ("a:b:c") and the text after the first "=".
// Without "=" the whole is the name.
func splitName(body string) (name, full, rest string) {
	body = strings.TrimPrefix(body, "+")
	full, rest, found := strings.Cut(body, "=")
	if !found {
		return body, body, ""
	}
	name = full
	if i := strings.LastIndex(full, ":"); i >= 0 {
		name = full[:i]
	}
	return name, full, rest
}

// fileMarkers returns the rbac markers of a file, each with whether
// controller-gen reads it. test says the file is a _test.go file, which
// controller-gen never loads.
func fileMarkers(f *ast.File, test bool) []*marker {
	var out []*marker
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if isRBAC(c.Text) {
				body, _ := markerText(c.Text)
				r, ok := parseRule(body)
				out = append(out, &marker{comment: c, group: cg, rule: r, parsed: ok})
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	if test {
		for _, m := range out {
			m.where = "a _test.go file, which controller-gen does not load"
		}
		return out
	}
	places := associate(f)
	for _, m := range out {
		p := places[m.group]
		m.read, m.where, m.doc = p.pkg, p.where, p.doc
	}
	return out
}

// A place is what controller-gen makes of a comment group's markers.
type place struct {
	pkg   bool // package markers
	where string
	doc   ast.Node
}

// associate decides, for every comment group of a file, whether
// controller-gen takes its markers as package markers, following
// controller-tools' marker collector (pkg/markers/collect.go), which
// walks the syntax tree with a cursor over the file's comment groups. At
// each node, the groups between the cursor and the node are:
//
//   - the node's doc comment, when it is the last of them: a marker there
//     belongs to the node (a func, a type, a var block), and an rbac marker
//     is read only on a package;
//   - before it, the closest group that is not the doc: package markers
//     for a top-level declaration or the file; for a type, also package
//     markers when the marker is a package-only one such as rbac; for a
//     field, the field's; elsewhere (inside a body), nobody's, except
//     before a var, const or import declaration, where they are package
//     markers wherever it is;
//   - any earlier groups: package markers at the top level, nobody's
//     below it.
//
// A node's end moves the cursor past the groups inside it, except for the
// file; a trailing comment on a field, spec or import line is skipped; the
// groups after the last declaration are package markers.
func associate(f *ast.File) map[*ast.CommentGroup]place {
	a := &associator{groups: f.Comments, places: make(map[*ast.CommentGroup]place, len(f.Comments))}
	ast.Walk(&visitor{a: a, topLevel: true}, f)
	a.mark(a.next, len(a.groups), place{pkg: true})
	return a.places
}

type associator struct {
	groups []*ast.CommentGroup
	next   int // the first group not yet placed
	// trailing is the end-of-line comment of the last node that has one,
	// skipped when the cursor reaches it.
	trailing *ast.CommentGroup
	// forType are the groups of a single type declaration, placed with
	// its type spec: whether each was the doc comment.
	forType []heldGroup
	places  map[*ast.CommentGroup]place
}

type heldGroup struct {
	index int
	doc   bool
	where string
	decl  ast.Node
}

// mark places the groups [from, to).
func (a *associator) mark(from, to int, p place) {
	for i := from; i < to; i++ {
		if _, done := a.places[a.groups[i]]; !done {
			a.places[a.groups[i]] = p
		}
	}
}

type visitor struct {
	a        *associator
	topLevel bool     // the file's children: loose groups are package markers
	node     ast.Node // the node whose children this visitor walks
	outer    string   // where the node is, for markers found inside it
}

func (v *visitor) Visit(node ast.Node) ast.Visitor {
	a := v.a
	if node == nil {
		if !v.topLevel {
			// Past the node's end: what it holds is nobody's package marker.
			i := a.next
			for i < len(a.groups) && a.groups[i].Pos() < v.node.End() {
				i++
			}
			a.mark(a.next, i, place{where: v.outer})
			a.next = i
		}
		return nil
	}
	if a.trailing != nil && a.next < len(a.groups) && a.groups[a.next].Pos() == a.trailing.Pos() {
		a.mark(a.next, a.next+1, place{where: "an end-of-line comment"})
		a.next++
	}
	child := &visitor{a: a, node: node, outer: within(node, v.outer)}
	if _, ok := node.(*ast.File); ok {
		child.topLevel = true
	}
	if a.next >= len(a.groups) {
		v.place(node, -1, -1, -1)
		return child
	}
	// last is the last group before the node.
	last := a.next
	for last < len(a.groups) && a.groups[last].Pos() < node.Pos() {
		last++
	}
	last--
	doc, trailing := docOf(node)
	a.trailing = trailing
	closest := last // the closest group that is not the doc comment
	if doc != nil && a.groups[closest].Pos() == doc.Pos() {
		closest--
	}
	if closest >= a.next {
		if v.topLevel {
			a.mark(a.next, closest, place{pkg: true})
		} else {
			a.mark(a.next, closest, place{where: v.outer})
		}
		v.place(node, closest, closest+1, last)
	} else {
		v.place(node, -1, closest+1, last)
	}
	a.next = last + 1
	return child
}

// place places the groups found before a node: closest, the closest group
// that is not its doc comment (-1: none), and docs, the groups
// [docFrom, docTo] (the doc comment; empty when docFrom > docTo).
func (v *visitor) place(node ast.Node, closest, docFrom, docTo int) {
	a := v.a
	markDocs := func(p place) {
		if docFrom >= 0 && docFrom <= docTo {
			a.mark(docFrom, docTo+1, p)
		}
	}
	markClosest := func(p place) {
		if closest >= 0 {
			a.mark(closest, closest+1, p)
		}
	}
	switch n := node.(type) {
	case *ast.GenDecl:
		if n.Lparen.IsValid() || n.Tok != token.TYPE {
			markClosest(place{pkg: true})
			p := place{where: "the doc comment of " + declName(n)}
			if v.topLevel {
				p.doc = n
			}
			markDocs(p)
			return
		}
		// A single type declaration: its groups go with its spec.
		if closest >= 0 {
			a.forType = append(a.forType, heldGroup{index: closest})
		}
		if docFrom >= 0 {
			for i := docFrom; i <= docTo; i++ {
				h := heldGroup{index: i, doc: true, where: "the doc comment of " + declName(n)}
				if v.topLevel {
					h.decl = n
				}
				a.forType = append(a.forType, h)
			}
		}
	case *ast.TypeSpec:
		for _, h := range a.forType {
			if h.doc {
				a.mark(h.index, h.index+1, place{where: h.where, doc: h.decl})
			} else {
				a.mark(h.index, h.index+1, place{pkg: true})
			}
		}
		a.forType = nil
		markClosest(place{pkg: true})
		markDocs(place{where: "the doc comment of type " + n.Name.Name})
	case *ast.Field:
		p := place{where: "the comment of a field or parameter"}
		markClosest(p)
		markDocs(p)
	case *ast.File:
		markClosest(place{pkg: true})
		markDocs(place{pkg: true})
	default:
		if v.topLevel {
			markClosest(place{pkg: true})
		} else {
			markClosest(place{where: v.outer})
		}
		p := place{where: v.outer}
		switch n := node.(type) {
		case *ast.FuncDecl:
			p = place{where: "the doc comment of " + funcName(n)}
			if v.topLevel {
				p.doc = n
			}
		case *ast.ValueSpec, *ast.ImportSpec:
			p = place{where: "the doc comment of a declaration inside a block"}
		}
		markDocs(p)
	}
}

// docOf is what the collector takes as a node's doc comment and its
// end-of-line comment.
func docOf(node ast.Node) (doc, trailing *ast.CommentGroup) {
	switch n := node.(type) {
	case *ast.Field:
		return n.Doc, n.Comment
	case *ast.File:
		return n.Doc, nil
	case *ast.FuncDecl:
		return n.Doc, nil
	case *ast.GenDecl:
		return n.Doc, nil
	case *ast.ImportSpec:
		return n.Doc, n.Comment
	case *ast.TypeSpec:
		return n.Doc, n.Comment
	case *ast.ValueSpec:
		return n.Doc, n.Comment
	}
	return nil, nil
}

// within says where a marker found inside node sits.
func within(node ast.Node, outer string) string {
	switch n := node.(type) {
	case *ast.FuncDecl:
		return "the body of " + funcName(n)
	case *ast.FuncLit:
		if outer == "" {
			return "a function literal"
		}
		return outer
	case *ast.TypeSpec:
		return "the declaration of type " + n.Name.Name
	case *ast.GenDecl:
		if outer != "" {
			return outer
		}
		return "a " + n.Tok.String() + " block"
	}
	return outer
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		recv := fd.Recv.List[0].Type
		if star, ok := recv.(*ast.StarExpr); ok {
			recv = star.X
		}
		switch r := recv.(type) {
		case *ast.IndexExpr:
			recv = r.X
		case *ast.IndexListExpr:
			recv = r.X
		}
		if id, ok := recv.(*ast.Ident); ok {
			return fmt.Sprintf("method %s.%s", id.Name, fd.Name.Name)
		}
	}
	return "func " + fd.Name.Name
}

func declName(gd *ast.GenDecl) string {
	if len(gd.Specs) == 1 && !gd.Lparen.IsValid() {
		switch s := gd.Specs[0].(type) {
		case *ast.TypeSpec:
			return "type " + s.Name.Name
		case *ast.ValueSpec:
			if len(s.Names) > 0 {
				return gd.Tok.String() + " " + s.Names[0].Name
			}
		}
	}
	return "a " + gd.Tok.String() + " declaration"
}
