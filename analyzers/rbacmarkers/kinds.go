package rbacmarkers

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// A resource is what RBAC knows an object type by: its API group and the
// plural name of its resource.
type resource struct {
	kind  string
	group string
	// plural is the resource name a fix writes: the scheme's guess for a
	// built-in kind (every kind of k8s.io/api follows it), the
	// +kubebuilder:resource:path of a custom one, or its regular plural.
	plural string
	// exact is true when plural is the only name the resource has (a
	// built-in kind, a custom kind with a path marker or a configured
	// name); otherwise a marker naming another plural form of the kind
	// (see pluralOf) is taken to mean it.
	exact bool
}

// String prints the resource as kubectl does: deployments.apps, pods.
func (r resource) String() string {
	if r.group == "" {
		return r.plural
	}
	return r.plural + "." + r.group
}

// names reports whether a marker's resource name (without subresource)
// names r.
func (r resource) names(name string) bool {
	if name == r.plural {
		return true
	}
	if r.exact {
		return false
	}
	kind := strings.ToLower(r.kind)
	return name == unsafeGuess(r.kind) || singularOf(name, kind)
}

// resourceOf returns the resource of an API object type, or of the item of
// a list type when list is true (controller-runtime's List takes
// FooList and lists foos). ok is false when the type is not a kind the
// analyzer can name: an interface, an unstructured or metadata-only
// object, a type whose package's group is not found.
func (c *checker) resourceOf(t types.Type, list bool) (resource, bool) {
	if t == nil || types.IsInterface(t) {
		return resource{}, false
	}
	n := kube.Named(t)
	if n == nil || n.Obj().Pkg() == nil {
		return resource{}, false
	}
	obj := n.Obj()
	if list {
		item := kube.Named(kube.ListItem(n))
		if item == nil {
			return resource{}, false
		}
		obj = item.Obj()
	}
	if !kube.IsObjectType(obj.Type()) || kube.Is(obj.Type(), kube.MetaV1Pkg, "PartialObjectMetadata") {
		return resource{}, false
	}
	pkg := obj.Pkg()
	group, ok := c.groupOf(obj)
	if !ok {
		return resource{}, false
	}
	r := resource{kind: obj.Name(), group: group}
	if name, ok := c.opts.resources[overrideKey(r.kind, group)]; ok {
		r.plural, r.exact = name, true
		return r, true
	}
	if kube.BuiltinGroup(pkg.Path()) != "" {
		r.plural, r.exact = unsafeGuess(r.kind), true
		return r, true
	}
	if path := c.resourcePath(obj); path != "" {
		r.plural, r.exact = path, true
		return r, true
	}
	r.plural = regularPlural(strings.ToLower(r.kind))
	return r, true
}

// overrideKey is how the resources option names a kind: Kind.group, or
// Kind for the core group.
func overrideKey(kind, group string) string {
	if group == "" {
		return kind
	}
	return kind + "." + group
}

// resourcePath reads a custom type's +kubebuilder:resource:path marker,
// the plural controller-gen gives its CRD instead of the regular one.
func (c *checker) resourcePath(obj *types.TypeName) string {
	for _, line := range c.src.TypeComments(obj) {
		rest, ok := strings.CutPrefix(line, "+kubebuilder:resource:")
		if !ok {
			continue
		}
		for _, arg := range strings.Split(rest, ",") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(arg), "path="); ok {
				return strings.Trim(v, `"`)
			}
		}
	}
	return ""
}

// groupOf finds the API group of a package of API types: its GroupName
// constant (k8s.io/api and code-generator's register.go), else its
// +groupName marker (kubebuilder's groupversion_info.go, code-generator's
// doc.go), else the Group of its GroupVersion or SchemeGroupVersion
// variable when a constant.
func (c *checker) groupOf(obj *types.TypeName) (string, bool) {
	pkg := obj.Pkg()
	if g, ok := c.groups[pkg]; ok {
		return g.name, g.ok
	}
	name, ok := c.findGroup(pkg, c.dirOf(obj))
	c.groups[pkg] = groupName{name, ok}
	return name, ok
}

type groupName struct {
	name string
	ok   bool
}

func (c *checker) findGroup(pkg *types.Package, dir string) (string, bool) {
	if c.visible(pkg) {
		if k, ok := pkg.Scope().Lookup("GroupName").(*types.Const); ok && k.Val().Kind() == constant.String {
			return constant.StringVal(k.Val()), true
		}
	}
	if dir == "" {
		return "", false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := c.readFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil || f.Name.Name != pkg.Name() {
			continue
		}
		files = append(files, f)
		for _, cg := range f.Comments {
			if cg.Pos() > f.Package {
				break
			}
			for _, cm := range cg.List {
				if v, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(cm.Text, "//")), "+groupName="); ok {
					return strings.Trim(strings.TrimSpace(v), `"`), true
				}
			}
		}
	}
	for _, f := range files {
		if g, ok := groupVersionLiteral(f); ok {
			return g, true
		}
	}
	return "", false
}

// groupVersionLiteral reads `GroupVersion = schema.GroupVersion{Group:
// "x", ...}` (or SchemeGroupVersion) from a file, with the group a string
// literal.
func groupVersionLiteral(f *ast.File) (string, bool) {
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if (id.Name != "GroupVersion" && id.Name != "SchemeGroupVersion") || i >= len(vs.Values) {
					continue
				}
				lit, ok := ast.Unparen(vs.Values[i]).(*ast.CompositeLit)
				if !ok {
					continue
				}
				for _, elt := range lit.Elts {
					kv, ok := elt.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "Group" {
						if bl, ok := kv.Value.(*ast.BasicLit); ok && bl.Kind == token.STRING {
							if s, err := strconv.Unquote(bl.Value); err == nil {
								return s, true
							}
						}
					}
				}
			}
		}
	}
	return "", false
}

// dirOf is the directory of the source declaring obj (export data
// records positions).
func (c *checker) dirOf(obj types.Object) string {
	if !obj.Pos().IsValid() {
		return ""
	}
	if tf := c.pass.Fset.File(obj.Pos()); tf != nil {
		return filepath.Dir(tf.PositionFor(obj.Pos(), false).Filename)
	}
	return ""
}

// visible reports whether the analysed package sees the whole scope of
// pkg: its own, or one it imports directly (export data holds a directly
// imported package whole).
func (c *checker) visible(pkg *types.Package) bool {
	if pkg == c.pass.Pkg {
		return true
	}
	for _, imp := range c.pass.Pkg.Imports() {
		if imp == pkg {
			return true
		}
	}
	return false
}

// unsafeGuess is apimachinery's meta.UnsafeGuessKindToResource: the kind
// lower-cased, then "es" after an s, "ies" for a final y, else "s";
// Endpoints stays as it is. Every kind of k8s.io/api has this plural.
func unsafeGuess(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case k == "":
		return ""
	case strings.HasSuffix(k, "endpoints"):
		return k
	case strings.HasSuffix(k, "s"):
		return k + "es"
	case strings.HasSuffix(k, "y"):
		return strings.TrimSuffix(k, "y") + "ies"
	}
	return k + "s"
}

// regularPlural is the regular English plural of a lower-cased kind, as
// controller-gen names a CRD's resource (it uses flect.Pluralize, which
// also knows irregular words: a marker naming another plural form is
// accepted, see singularOf).
func regularPlural(k string) string {
	switch {
	case k == "":
		return ""
	case strings.HasSuffix(k, "s"), strings.HasSuffix(k, "x"), strings.HasSuffix(k, "z"),
		strings.HasSuffix(k, "ch"), strings.HasSuffix(k, "sh"):
		return k + "es"
	case strings.HasSuffix(k, "y") && len(k) > 1 && !strings.ContainsRune("aeiou", rune(k[len(k)-2])):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}

// singularOf reports whether name is a plural form of the lower-cased kind
// (or the kind itself, for words whose plural is the singular): English
// plural endings taken off one at a time.
func singularOf(name, kind string) bool {
	if name == kind {
		return true
	}
	for _, e := range [][2]string{
		{"s", ""}, {"es", ""}, {"ies", "y"}, {"ices", "ex"}, {"ices", "ix"},
		{"ves", "f"}, {"ves", "fe"}, {"i", "us"}, {"a", "um"}, {"a", "on"}, {"en", ""},
	} {
		if stem, ok := strings.CutSuffix(name, e[0]); ok && stem+e[1] == kind {
			return true
		}
	}
	return false
}

// readFile reads a file of a dependency or of the module as the go
// command sees it: through the pass when it may (the analysed package's
// files, an editor's unsaved text), else from disk.
func (c *checker) readFile(name string) ([]byte, error) {
	if c.pass.ReadFile != nil {
		if data, err := c.pass.ReadFile(name); err == nil {
			return data, nil
		}
	}
	return os.ReadFile(name)
}
