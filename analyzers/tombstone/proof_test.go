package tombstone

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/keyflow"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
	"github.com/ctrllint/ctrllint/internal/lend"
)

// A proofPkg is testdata/proof built against one fixture module's
// client-go, with a checker over it whose limits go to run.
type proofPkg struct {
	t   *testing.T
	c   *checker
	run *lend.Run
}

func loadProof(t *testing.T, module string) *proofPkg {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join("testdata", "proof", "proof.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		paths = append(paths, p)
	}
	deps := fixture.Types(t, module, paths...)
	imp := importerFunc(func(path string) (*types.Package, error) {
		if p := deps[path]; p != nil {
			return p, nil
		}
		return nil, fmt.Errorf("%s is not loaded", path)
	})
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: imp}, fset, types.NewPackage("example.com/proof", ""), []*ast.File{f}, ssa.BareInits)
	if err != nil {
		t.Fatal(err)
	}
	var funcs []*ssa.Function
	for fn := range ssautil.AllFunctions(pkg.Prog) {
		if fn.Pkg == pkg && fn.Synthetic == "" {
			funcs = append(funcs, fn)
		}
	}
	run := lend.NewRun()
	pass := &analysis.Pass{Analyzer: Analyzer, Fset: fset, Pkg: pkg.Pkg, ResultOf: map[*analysis.Analyzer]any{lend.Analyzer: run}}
	c := &checker{pass: pass, pkg: pkg, prog: pkg.Prog, funcs: funcs, keys: keyflow.NewPackage(pkg, funcs)}
	return &proofPkg{t: t, c: c, run: run}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// fn is the function, or method of *Controller, name.
func (p *proofPkg) fn(name string) *ssa.Function {
	p.t.Helper()
	if fn := p.c.pkg.Func(name); fn != nil {
		return fn
	}
	ctrl := types.NewPointer(p.c.pkg.Pkg.Scope().Lookup("Controller").Type())
	if m, _, _ := types.LookupFieldOrMethod(ctrl, true, p.c.pkg.Pkg, name); m != nil {
		return p.c.prog.FuncValue(m.(*types.Func))
	}
	p.t.Fatalf("no function %s in testdata/proof", name)
	return nil
}

// drop is link 1 on the comma-ok assertion of the method name.
func (p *proofPkg) drop(name string) (drop, failure) {
	p.t.Helper()
	fn := p.fn(name)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ta, ok := instr.(*ssa.TypeAssert); ok && ta.CommaOk {
				return assertedDrop(fn, ta)
			}
		}
	}
	p.t.Fatalf("%s asserts nothing", name)
	return drop{}, ""
}

// limits are the limits noted since the last call, as "What at line".
func (p *proofPkg) limits() []string {
	var out []string
	for _, l := range p.run.Limits.All() {
		if l.Analyzer != name || l.Package != "example.com/proof" {
			p.t.Errorf("limit noted for analyzer %s in package %s", l.Analyzer, l.Package)
		}
		what, _, _ := strings.Cut(l.What, ":")
		out = append(out, fmt.Sprintf("%s at %d", what, l.Pos.Line))
	}
	p.run.Limits = new(lend.Limits)
	return out
}

// lineOf is the line of testdata/proof holding text.
func lineOf(t *testing.T, text string) int {
	t.Helper()
	src, err := readProof()
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	t.Fatalf("no line %q in testdata/proof", text)
	return 0
}

// TestProofLinks runs each link of the harmless-drop proof on the
// functions of testdata/proof, against both client-go versions.
func TestProofLinks(t *testing.T) {
	for _, module := range []string{"current", "legacy"} {
		t.Run(module, func(t *testing.T) {
			p := loadProof(t, module)
			c := p.c

			// Link 1: the drop.
			d, why := p.drop("enqueue")
			if why != "" || d.obj == nil || d.kind.typ == nil || d.kind.typ.String() != "k8s.io/api/core/v1.PersistentVolumeClaim" {
				t.Fatalf("assertedDrop(enqueue) = %+v, %q; want the claim", d, why)
			}
			kind := d.kind
			if _, why := p.drop("notAnObject"); why != "asserts to something other than an API object" {
				t.Errorf("assertedDrop(notAnObject) failure = %q", why)
			}
			enqueue := p.fn("enqueue")
			for _, tc := range []struct {
				r   root
				why failure
			}{
				{root{}, "no handler function"},
				{root{fn: enqueue, param: 1, mode: mayBeTombstone}, "the informer's kind is unknown"},
				{root{fn: enqueue, param: 1, mode: mayBeNil, kind: kind.typ}, "the handler's object is no tombstone"},
				{root{fn: enqueue, param: 1, mode: mayBeTombstone, kind: kind.typ}, ""},
			} {
				d, why := rootDrop(tc.r)
				if why != tc.why || why == "" && (d.fn != enqueue || d.obj != enqueue.Params[1] || d.kind.typ != kind.typ) {
					t.Errorf("rootDrop(%+v) = %+v, %q; want %q", tc.r, d, why, tc.why)
				}
			}

			// Link 2: enqueue only.
			for _, tc := range []struct {
				fn    string
				queue string // the field the queue is loaded from
				why   failure
			}{
				{"enqueue", "queue", ""},
				{"shallow", "queue", ""},
				{"counting", "", "writes state that outlives the handler"},
				{"deep", "", "helpers nested deeper than maxHelperDepth"},
			} {
				fn := p.fn(tc.fn)
				queues, why := c.enqueueOnly(fn, fn.Params[1], 0)
				var fields []string
				for q := range queues {
					fields = append(fields, ssax.LoadedField(q).Name())
				}
				if why != tc.why || tc.queue != "" && (len(fields) != 1 || fields[0] != tc.queue) {
					t.Errorf("enqueueOnly(%s) = %v, %q; want [%s], %q", tc.fn, fields, why, tc.queue, tc.why)
				}
			}
			want := fmt.Sprintf("maxHelperDepth at %d", lineOf(t, "func (c *Controller) deep3"))
			if got := p.limits(); len(got) != 1 || got[0] != want {
				t.Errorf("limits noted = %q, want [%s]", got, want)
			}
			if got := c.queueParam(p.fn("Enqueue"), p.fn("Enqueue").Params[0], 0); got == nil || *got != (QueueParam{Param: 1}) {
				t.Errorf("queueParam(Enqueue) = %+v, want param 1", got)
			}
			if got := c.queueParam(p.fn("counting"), p.fn("counting").Params[1], 1); got != nil {
				t.Errorf("queueParam(counting) = %+v, want nil", got)
			}

			// Link 3: held in a field.
			if why := c.lossless(drop{fn: p.fn("Enqueue"), obj: p.fn("Enqueue").Params[0], kind: kind}); why != "adds the key to a queue not held in a field" {
				t.Errorf("lossless(Enqueue) = %q", why)
			}

			// Link 4: the workers.
			field := func(n string) *types.Var {
				st := c.pkg.Pkg.Scope().Lookup("Controller").Type().Underlying().(*types.Struct)
				for f := range st.Fields() {
					if f.Name() == n {
						return f
					}
				}
				t.Fatalf("no field %s", n)
				return nil
			}
			if got, why := c.workersIgnoreMissing(field("queue"), kind); why != "" || got != (workersFound{workers: 1, syncs: 1}) {
				t.Errorf("workersIgnoreMissing(queue) = %+v, %q; want one worker, one sync", got, why)
			}
			if got, why := c.workersIgnoreMissing(field("idle"), kind); why != "no worker takes keys from the queue" || got.workers != 0 {
				t.Errorf("workersIgnoreMissing(idle) = %+v, %q", got, why)
			}

			// Link 5: the sync ignores a missing object.
			sync := p.fn("syncClaim")
			if read := c.quietRead(sync, sync.Params[1], kind); read == nil || read.Common().Method.Name() != "Get" {
				t.Errorf("quietRead(syncClaim) = %v, want the lister's Get", read)
			}
			loud := p.fn("syncLoud")
			if read := c.quietRead(loud, loud.Params[1], kind); read != nil {
				t.Errorf("quietRead(syncLoud) = %v, want nil", read)
			}

			// The chain.
			for fn, want := range map[string]failure{
				"enqueue": "",
				"toIdle":  "no worker takes keys from the queue",
			} {
				f := p.fn(fn)
				if why := c.lossless(drop{fn: f, obj: f.Params[1], kind: kind}); why != want {
					t.Errorf("lossless(%s) = %q, want %q", fn, why, want)
				}
			}

			// Link 4 across packages: WorkerFact.
			runWorker := c.pkg.Pkg.Scope().Lookup("RunWorker").(*types.Func)
			if got := c.workerFact(runWorker); got == nil || *got != (WorkerFact{Queue: 0, Sync: 1, Key: 0}) {
				t.Errorf("workerFact(RunWorker) = %v", got)
			}
			if got := c.workerFact(c.pkg.Pkg.Scope().Lookup("RunDeep").(*types.Func)); got != nil {
				t.Errorf("workerFact(RunDeep) = %v, want nil", got)
			}
			want = fmt.Sprintf("maxWorkerDepth at %d", lineOf(t, "func runDeep4")+1) // its call of processNext
			if got := p.limits(); len(got) != 1 || got[0] != want {
				t.Errorf("limits noted = %q, want [%s]", got, want)
			}
		})
	}
}

func readProof() (string, error) {
	b, err := os.ReadFile(filepath.Join("testdata", "proof", "proof.go"))
	return string(b), err
}
