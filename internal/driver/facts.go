package driver

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/types"
	"reflect"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// Facts carry an analyzer's summaries of one package's functions and
// types to the packages that import it (analysis.Fact). The checker keeps
// facts only among the packages of one Analyze call, and would run every
// fact-using analyzer on every dependency from source; the driver
// analyses one package per call, its dependencies coming from export
// data. So the driver keeps the facts itself, for the packages it
// analyses from source in dependency order (units.go), and hands each
// pass the facts of the packages below it.
//
// Facts are stored gob-encoded, as go vet's unitchecker passes them
// between processes: an analyzer sees the same facts under every driver,
// and a fact that go vet could not carry fails here too. Objects are
// named by package path and objectpath, so a fact exported while
// analysing a package from source is found on the object an importer
// decoded from export data.
type factStore struct {
	mu   sync.Mutex
	objs map[objectFactKey][]byte
	pkgs map[packageFactKey][]byte
}

type objectFactKey struct {
	pkg  string // the package path of the object
	obj  objectpath.Path
	fact reflect.Type
}

type packageFactKey struct {
	pkg  string
	fact reflect.Type
}

func newFactStore() *factStore {
	return &factStore{objs: make(map[objectFactKey][]byte), pkgs: make(map[packageFactKey][]byte)}
}

// factView is what one package's passes see of the store: the facts of
// the packages it depends on (by path), and its own, which its passes
// export. Each analyzer sees only its own fact types, as in the checker.
type factView struct {
	store *factStore
	pkg   *types.Package
	deps  map[string]bool // package paths whose facts are visible
	enc   *objectpath.Encoder
	mu    sync.Mutex // analyzers of one package may run concurrently
}

func (s *factStore) view(pkg *types.Package, deps map[string]bool) *factView {
	return &factView{store: s, pkg: pkg, deps: deps, enc: new(objectpath.Encoder)}
}

// visible reports whether facts about objects of path can be imported.
func (v *factView) visible(path string) bool {
	return path == v.pkg.Path() || v.deps[path]
}

func encodeFact(f analysis.Fact) []byte {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(f); err != nil {
		panic(fmt.Sprintf("fact %T cannot be encoded: %v", f, err))
	}
	return buf.Bytes()
}

func decodeFact(data []byte, into analysis.Fact) bool {
	// A fresh value, so that a partly decoded one never reaches the
	// analyzer.
	v := reflect.New(reflect.TypeOf(into).Elem())
	if gob.NewDecoder(bytes.NewReader(data)).DecodeValue(v) != nil {
		return false
	}
	reflect.ValueOf(into).Elem().Set(v.Elem())
	return true
}

func (v *factView) objectPath(obj types.Object) (objectpath.Path, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	p, err := v.enc.For(obj)
	return p, err == nil
}

// install sets pass's fact functions to read and write v, for analyzer a
// (the original, whose FactTypes say which facts it may use).
func (v *factView) install(pass *analysis.Pass, a *analysis.Analyzer) {
	allowed := make(map[reflect.Type]bool, len(a.FactTypes))
	for _, f := range a.FactTypes {
		allowed[reflect.TypeOf(f)] = true
	}
	check := func(f analysis.Fact) reflect.Type {
		t := reflect.TypeOf(f)
		if !allowed[t] {
			panic(fmt.Sprintf("analyzer %s uses fact type %s, which it does not declare", a.Name, t))
		}
		return t
	}
	pass.ImportObjectFact = func(obj types.Object, f analysis.Fact) bool {
		t := check(f)
		if obj == nil || obj.Pkg() == nil || !v.visible(obj.Pkg().Path()) {
			return false
		}
		p, ok := v.objectPath(obj)
		if !ok {
			return false
		}
		v.store.mu.Lock()
		data, ok := v.store.objs[objectFactKey{obj.Pkg().Path(), p, t}]
		v.store.mu.Unlock()
		return ok && decodeFact(data, f)
	}
	pass.ExportObjectFact = func(obj types.Object, f analysis.Fact) {
		t := check(f)
		if obj.Pkg() != v.pkg {
			panic(fmt.Sprintf("analyzer %s exports a fact about %s, which is not in package %s", a.Name, obj, v.pkg.Path()))
		}
		p, ok := v.objectPath(obj)
		if !ok {
			return // no importer can name it (a local variable, say)
		}
		data := encodeFact(f)
		v.store.mu.Lock()
		v.store.objs[objectFactKey{v.pkg.Path(), p, t}] = data
		v.store.mu.Unlock()
	}
	pass.ImportPackageFact = func(pkg *types.Package, f analysis.Fact) bool {
		t := check(f)
		if pkg == nil || !v.visible(pkg.Path()) {
			return false
		}
		v.store.mu.Lock()
		data, ok := v.store.pkgs[packageFactKey{pkg.Path(), t}]
		v.store.mu.Unlock()
		return ok && decodeFact(data, f)
	}
	pass.ExportPackageFact = func(f analysis.Fact) {
		t := check(f)
		data := encodeFact(f)
		v.store.mu.Lock()
		v.store.pkgs[packageFactKey{v.pkg.Path(), t}] = data
		v.store.mu.Unlock()
	}
	pass.AllObjectFacts = func() []analysis.ObjectFact { return v.allObjectFacts(allowed) }
	pass.AllPackageFacts = func() []analysis.PackageFact { return v.allPackageFacts(allowed) }
}

// packagesByPath are the packages this view's package can see, by path:
// itself and everything it imports, directly or not.
func (v *factView) packagesByPath() map[string]*types.Package {
	out := map[string]*types.Package{v.pkg.Path(): v.pkg}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		for _, imp := range p.Imports() {
			if _, ok := out[imp.Path()]; !ok {
				out[imp.Path()] = imp
				walk(imp)
			}
		}
	}
	walk(v.pkg)
	return out
}

// allObjectFacts are the facts of allowed types on objects this package
// can name. An object an importer's export data does not hold cannot be
// named, and neither can its facts, as under go vet.
func (v *factView) allObjectFacts(allowed map[reflect.Type]bool) []analysis.ObjectFact {
	byPath := v.packagesByPath()
	v.store.mu.Lock()
	var keys []objectFactKey
	for k := range v.store.objs {
		if allowed[k.fact] && v.visible(k.pkg) && byPath[k.pkg] != nil {
			keys = append(keys, k)
		}
	}
	data := make([][]byte, len(keys))
	sortObjectKeys(keys)
	for i, k := range keys {
		data[i] = v.store.objs[k]
	}
	v.store.mu.Unlock()
	var out []analysis.ObjectFact
	for i, k := range keys {
		obj, err := objectpath.Object(byPath[k.pkg], k.obj)
		if err != nil {
			continue
		}
		f := reflect.New(k.fact.Elem()).Interface().(analysis.Fact)
		if decodeFact(data[i], f) {
			out = append(out, analysis.ObjectFact{Object: obj, Fact: f})
		}
	}
	return out
}

func (v *factView) allPackageFacts(allowed map[reflect.Type]bool) []analysis.PackageFact {
	byPath := v.packagesByPath()
	v.store.mu.Lock()
	var keys []packageFactKey
	for k := range v.store.pkgs {
		if allowed[k.fact] && v.visible(k.pkg) && byPath[k.pkg] != nil {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].pkg != keys[j].pkg {
			return keys[i].pkg < keys[j].pkg
		}
		return keys[i].fact.String() < keys[j].fact.String()
	})
	data := make([][]byte, len(keys))
	for i, k := range keys {
		data[i] = v.store.pkgs[k]
	}
	v.store.mu.Unlock()
	var out []analysis.PackageFact
	for i, k := range keys {
		f := reflect.New(k.fact.Elem()).Interface().(analysis.Fact)
		if decodeFact(data[i], f) {
			out = append(out, analysis.PackageFact{Package: byPath[k.pkg], Fact: f})
		}
	}
	return out
}

// sortObjectKeys orders keys so that AllObjectFacts does not depend on
// map order.
func sortObjectKeys(keys []objectFactKey) {
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.pkg != b.pkg {
			return a.pkg < b.pkg
		}
		if a.obj != b.obj {
			return a.obj < b.obj
		}
		return a.fact.String() < b.fact.String()
	})
}
