package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/ctrllint/ctrllint/internal/testanalyzers"
)

// After a load, edits of the package's own text are type-checked over
// the dependencies that load decoded, with the findings a load gives;
// a dependency changed on disk, or an import added, makes the next run
// load again.
func TestEditsReuseTheLoad(t *testing.T) {
	dir, dep, old := depFixture(t)
	mod := filepath.Dir(dir)
	s := start(t, testOptions())
	c := s.client
	s.initialize(t, mod)
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
	kept := func() int { return countLogged(c.logged, "kept the load") }
	c.await(t, "the load to be kept", func() bool { return len(c.diags[handlers]) == 2 && kept() == 1 })

	// lastRun is how the last run got its packages.
	lastRun := func() string {
		for i := len(c.logged) - 1; i >= 0; i-- {
			if l := c.logged[i]; strings.Contains(l, "findings in") {
				return l
			}
		}
		return ""
	}
	runs := func() int { return countLogged(c.logged, "findings in") }
	change := func(what, text string, diags int, how string) {
		t.Helper()
		c.mu.Lock()
		n := runs()
		c.mu.Unlock()
		s.change(t, handlers, &protocol.TextDocumentContentChangeWholeDocument{Text: text})
		c.await(t, what, func() bool { return runs() > n && len(c.diags[handlers]) == diags })
		c.mu.Lock()
		defer c.mu.Unlock()
		if l := lastRun(); !strings.Contains(l, how) {
			t.Errorf("%s: %q, want it %s; logged:\n%s", what, l, how, strings.Join(c.logged, "\n"))
		}
	}
	const reused, loaded = "type-checked over the last load's dependencies", ", loaded ("
	withoutNode := func(text string) string {
		i := strings.Index(text, "func (c *Controller) deleteNode")
		if i < 0 {
			t.Fatal("no deleteNode in handlers.go")
		}
		return text[:i] + "func (c *Controller) deleteNode(obj interface{}) {}\n"
	}
	change("a handler emptied", withoutNode(string(disk)), 1, reused)
	change("the handler back", string(disk), 2, reused)
	// The fix imports client-go's cache package: the go command must
	// list it.
	change("the fixed buffer", string(golden), 0, loaded)
	c.await(t, "the load to be kept again", func() bool { return kept() == 2 })
	unfixed := strings.Replace(string(golden), "\tif tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {\n\t\tobj = tombstone.Obj\n\t}\n\tswitch", "\tswitch", 1)
	if unfixed == string(golden) {
		t.Fatal("no tombstone check before deleteNode's switch in the golden file")
	}
	change("one fix undone", unfixed, 1, reused)
	// Text being typed: its errors come from the type check, without
	// the go command, and are logged rather than shown.
	shown := len(c.shown)
	change("half a statement typed", strings.Replace(unfixed, "c.queue.Add(node.Name)", "c.queue.Add(node.", 1), 0, reused)
	c.mu.Lock()
	if countLogged(c.logged, "could not analyse") == 0 || len(c.shown) != shown {
		t.Errorf("the broken text: shown %v, logged:\n%s", c.shown[shown:], strings.Join(c.logged, "\n"))
	}
	c.mu.Unlock()
	change("the statement finished", unfixed, 1, reused)

	// A dependency edited outside the editor (a git checkout): the
	// next run loads, and sees it.
	// (Dated in the past, as a checkout some time before the load
	// would be: a file written as a load starts keeps it from being
	// kept, TestStamps.)
	rewrite := func(text string, at time.Time) {
		t.Helper()
		if err := os.WriteFile(dep, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(dep, at, at); err != nil {
			t.Fatal(err)
		}
	}
	rewrite("package dep\n\nconst Name = 1\n", old.Add(time.Minute))
	change("after the dependency changed", string(golden), 0, loaded)
	c.await(t, "the load to be kept once more", func() bool { return kept() == 3 })
	rewrite("package dep\n", old.Add(2*time.Minute))
	s.change(t, handlers, &protocol.TextDocumentContentChangeWholeDocument{Text: unfixed})
	c.await(t, "the dependency's broken API logged", func() bool {
		return countLogged(c.logged, "undefined: dep.Name") > 0
	})
}

// depFixture is the fixture's package importing a package dep of its
// module, in files last written an hour ago, as the files of a repository
// opened in an editor are: a file written as the load runs may have been
// read half written, and no load is kept then. It returns the package's
// directory, dep's file and the files' time.
func depFixture(t *testing.T) (dir, dep string, old time.Time) {
	t.Helper()
	dir = fixture(t)
	mod := filepath.Dir(dir)
	dep = filepath.Join(mod, "dep", "dep.go")
	for path, text := range map[string]string{
		dep:                              "package dep\n\n// Name is what the fixture's package uses of dep.\nconst Name = \"dep\"\n",
		filepath.Join(dir, "usesdep.go"): "package tombstonefix\n\nimport \"example.com/current/dep\"\n\nvar _ = dep.Name\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, dep, testanalyzers.Age(t, mod)
}

// A save is seen by the open packages that import the saved one: their
// files were read from disk.
func TestSaveReanalysesImporters(t *testing.T) {
	dir, dep, _ := depFixture(t)
	s := start(t, testOptions())
	c := s.client
	s.initialize(t, filepath.Dir(dir))
	handlers := s.open(t, filepath.Join(dir, "handlers.go"))
	c.await(t, "the diagnostics of handlers.go", func() bool { return len(c.diags[handlers]) == 2 })
	depURI := s.open(t, dep)
	c.await(t, "dep's analysis", func() bool { return countLogged(c.logged, "./dep:") > 0 })
	s.save(t, depURI, "package dep\n")
	c.await(t, "the importer's error", func() bool {
		for _, m := range c.shown {
			if strings.Contains(m.Message, "undefined: dep.Name") {
				return true
			}
		}
		return false
	})
}

// An unsaved edit of a package that an open package imports is analysed
// with it, as a save would be: the importer runs again with the text.
func TestUnsavedDependency(t *testing.T) {
	dir, dep, _ := depFixture(t)
	s := start(t, testOptions())
	c := s.client
	s.initialize(t, filepath.Dir(dir))
	handlers := s.open(t, filepath.Join(dir, "handlers.go"))
	c.await(t, "the load to be kept", func() bool {
		return len(c.diags[handlers]) == 2 && countLogged(c.logged, "./tombstonefix: kept the load") == 1
	})
	text, err := os.ReadFile(dep)
	if err != nil {
		t.Fatal(err)
	}
	depURI := s.open(t, dep)
	runs := func() int { return countLogged(c.logged, "./tombstonefix: ") }
	c.mu.Lock()
	n := runs()
	c.mu.Unlock()
	s.change(t, depURI, &protocol.TextDocumentContentChangeWholeDocument{Text: "package dep\n"})
	c.await(t, "the importer to see dep's unsaved text", func() bool {
		return countLogged(c.logged, "undefined: dep.Name") > 0
	})
	s.change(t, depURI, &protocol.TextDocumentContentChangeWholeDocument{Text: string(text)})
	c.await(t, "the importer to see dep's text back", func() bool {
		last := ""
		for _, l := range c.logged {
			if strings.Contains(l, "./tombstonefix: ") && strings.Contains(l, "findings in") {
				last = l
			}
		}
		return runs() > n && len(c.diags[handlers]) == 2 && strings.Contains(last, "type-checked over the last load's dependencies")
	})
	if got, _ := os.ReadFile(dep); string(got) != string(text) {
		t.Errorf("dep.go changed on disk")
	}
}
