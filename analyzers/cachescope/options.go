package cachescope

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/flow"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// maxOptionDepth bounds the values and helper calls followed to read a
// manager's options.
const maxOptionDepth = 12

// A scope is what a manager's options say of the objects its cache holds.
type scope struct {
	// unknown: the options come from code not followed here (a
	// parameter, another package's function, an address handed to a
	// function): nothing is known of the cache.
	unknown bool
	// all: a restriction of every kind (a selector or transform for all
	// of them, a cache or client built by the caller).
	all bool
	// kinds are the object keys a client option reads live (DisableFor).
	kinds map[string]bool
	// byObject: ByObject is set from a map built in the package, whose
	// entries are the package's (entries).
	byObject bool
	// nsWrites are the writes that may give the cache namespaces.
	nsWrites []nsWrite
}

// An nsWrite may limit the cache to namespaces: a store of a namespace
// field, or an entry put into the map such a field holds.
type nsWrite struct {
	at   ssa.Instruction // the store or map update
	use  ssa.Instruction // where the options value it writes into is used
	sure bool            // the path from the manager's options to it is followed on every run
}

// namespaces says whether the cache is limited to namespaces.
type namespaces int

const (
	nsNone  namespaces = iota // never: the cache watches the whole cluster
	nsMaybe                   // on some runs only (a namespace flag that may be empty)
	nsSure                    // on every run
)

func (s *scope) namespaces() namespaces {
	if len(s.nsWrites) == 0 {
		return nsNone
	}
	for _, w := range s.nsWrites {
		if w.sure && covers(w.at, w.use) {
			return nsSure
		}
	}
	return nsMaybe
}

// options reads the manager options given to manager.New.
func (p *pkg) options(call *ssa.Call) *scope {
	s := &scope{kinds: make(map[string]bool)}
	p.structValue(s, call.Call.Args[1], call, true, 0)
	return s
}

// structValue reads an options struct value v used at use.
func (p *pkg) structValue(s *scope, v ssa.Value, use ssa.Instruction, sure bool, depth int) {
	if depth > maxOptionDepth {
		s.unknown = true
		return
	}
	switch x := flow.Origin(v, flow.Same).(type) {
	case *ssa.Const:
		// the zero value: nothing set
	case *ssa.UnOp:
		alloc, ok := x.X.(*ssa.Alloc)
		if x.Op != token.MUL || !ok {
			s.unknown = true
			return
		}
		p.structAddr(s, alloc, x, sure, depth+1)
	case *ssa.Call:
		callee := x.Call.StaticCallee()
		if callee == nil || callee.Pkg != p.funcs0Pkg() || callee.Blocks == nil {
			s.unknown = true
			return
		}
		for _, b := range callee.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) == 1 {
				p.structValue(s, ret.Results[0], ret, sure, depth+1)
			}
		}
	case *ssa.Phi:
		for _, e := range x.Edges {
			p.structValue(s, e, use, false, depth+1)
		}
	default:
		s.unknown = true
	}
}

// funcs0Pkg is the SSA package of the package's code.
func (p *pkg) funcs0Pkg() *ssa.Package {
	if len(p.funcs) == 0 {
		return nil
	}
	return p.funcs[0].Pkg
}

// structAddr reads the fields stored through addr, the address of an
// options struct whose value is used (loaded) at use.
func (p *pkg) structAddr(s *scope, addr ssa.Value, use ssa.Instruction, sure bool, depth int) {
	if depth > maxOptionDepth {
		s.unknown = true
		return
	}
	for _, ref := range *addr.Referrers() {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			p.field(s, r, use, sure, depth+1)
		case *ssa.Store:
			if r.Addr != addr && !intoClientCache(r) {
				s.unknown = true // the address is stored away
				continue
			}
			if r.Addr != addr {
				continue // the store the options are followed from
			}
			p.structValue(s, r.Val, r, sure && covers(r, use), depth+1)
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			s.unknown = true // the address is handed on
		}
	}
}

// field reads one field of an options struct through its address.
func (p *pkg) field(s *scope, fa *ssa.FieldAddr, use ssa.Instruction, sure bool, depth int) {
	f := ssax.FieldOfAddr(fa)
	if f == nil {
		s.unknown = true
		return
	}
	opt, ok := kube.CacheOptionOf(fa.X.Type(), f.Name())
	if !ok {
		println("DEBUGF", f.Name(), fa.X.Type().String())
		s.unknown = true
		return
	}
	switch opt {
	case kube.OptionInert:
	case kube.OptionCacheOptions, kube.OptionClientOptions:
		p.structAddr(s, fa, use, sure, depth+1)
	case kube.OptionClientCache:
		// A *client.CacheOptions: the options it points to.
		p.eachWrite(s, fa, func(st *ssa.Store) {
			switch x := flow.Origin(st.Val, flow.Same).(type) {
			case *ssa.Const:
			case *ssa.Alloc:
				p.structAddr(s, x, use, false, depth+1)
			default:
				s.unknown = true
			}
		}, func(load *ssa.UnOp) { p.structAddr(s, load, use, false, depth+1) })
	case kube.OptionRestricts:
		p.eachWrite(s, fa, func(st *ssa.Store) {
			if !isZero(st.Val) {
				s.all = true
			}
		}, nil)
	case kube.OptionNamespaces:
		p.eachWrite(s, fa, func(st *ssa.Store) {
			p.namespaceValue(s, st, use, sure && covers(st, use))
		}, func(load *ssa.UnOp) {
			p.mapEntries(s, load, use, sure)
		})
	case kube.OptionByObject:
		p.eachWrite(s, fa, func(st *ssa.Store) {
			origins, ok := flow.Origins(st.Val, flow.Same|flow.Phis)
			if !ok {
				s.all = true
				return
			}
			for _, o := range origins {
				switch x := o.(type) {
				case *ssa.Const, *ssa.MakeMap:
					s.byObject = true
				case *ssa.Call:
					if callee := x.Call.StaticCallee(); callee != nil && callee.Pkg == p.funcs0Pkg() {
						s.byObject = true // a map the package builds
					} else {
						s.all = true
					}
				default:
					s.all = true
				}
			}
		}, nil)
	case kube.OptionDisableFor:
		p.eachWrite(s, fa, func(st *ssa.Store) {
			objs, ok := flow.Variadic(st.Val)
			if !ok {
				s.all = true
				return
			}
			for _, o := range objs {
				if t := kubessa.ObjectArg(o); t != nil {
					s.kinds[kube.ObjectKey(t)] = true
				} else {
					s.all = true
				}
			}
		}, nil)
	}
}

// intoClientCache reports whether st stores an address into a
// *client.CacheOptions field (Client: client.Options{Cache: &client.CacheOptions{...}}),
// the field the options it points to are read from.
func intoClientCache(st *ssa.Store) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	f := ssax.FieldOfAddr(fa)
	if f == nil {
		return false
	}
	opt, _ := kube.CacheOptionOf(fa.X.Type(), f.Name())
	return opt == kube.OptionClientCache
}

// eachWrite calls store for each store into the field address fa and
// load for each load of it; an address handed on makes the scope
// unknown.
func (p *pkg) eachWrite(s *scope, fa *ssa.FieldAddr, store func(*ssa.Store), load func(*ssa.UnOp)) {
	for _, ref := range *fa.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr == fa {
				store(r)
			} else {
				s.unknown = true
			}
		case *ssa.UnOp:
			if load != nil {
				load(r)
			}
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			// a field of a struct-valued option this analysis reads as a
			// whole: set, so it may restrict
			s.all = true
		default:
			s.unknown = true
		}
	}
}

// namespaceValue records the writes of namespaces a store of a namespace
// field makes: the entries of a map built here, or a value not followed
// (a flag, a variable, a call), taken as non-empty. An empty string, a
// nil map and a map no entry is ever put into limit nothing.
func (p *pkg) namespaceValue(s *scope, st *ssa.Store, use ssa.Instruction, sure bool) {
	origins, ok := flow.Origins(st.Val, flow.Same|flow.Phis)
	if !ok {
		s.nsWrites = append(s.nsWrites, nsWrite{at: st, use: use, sure: sure})
		return
	}
	if len(origins) > 1 {
		sure = false // one of several values, one of which may be empty
	}
	for _, o := range origins {
		switch x := o.(type) {
		case *ssa.Const:
			if !isZero(x) {
				s.nsWrites = append(s.nsWrites, nsWrite{at: st, use: use, sure: sure})
			}
		case *ssa.MakeMap:
			p.mapEntries(s, x, use, sure)
		default:
			s.nsWrites = append(s.nsWrites, nsWrite{at: st, use: use, sure: sure})
		}
	}
}

// mapEntries records the entries put into the namespaces map m.
func (p *pkg) mapEntries(s *scope, m ssa.Value, use ssa.Instruction, sure bool) {
	for _, ref := range *m.Referrers() {
		if up, ok := ref.(*ssa.MapUpdate); ok && up.Map == m {
			s.nsWrites = append(s.nsWrites, nsWrite{at: up, use: use, sure: sure})
		}
	}
}

// isZero reports whether v is a constant zero value: nil, "", false, a
// zero struct.
func isZero(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.String:
		return constant.StringVal(c.Value) == ""
	case constant.Bool:
		return !constant.BoolVal(c.Value)
	}
	return false
}

// covers reports whether every path from the entry of use's function to
// use goes through at first (at is in the same function).
func covers(at, use ssa.Instruction) bool {
	fn := use.Parent()
	if at.Parent() != fn || at.Block() == nil || use.Block() == nil {
		return false
	}
	if at.Block() == use.Block() {
		return index(at) < index(use)
	}
	seen := map[*ssa.BasicBlock]bool{at.Block(): true}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if b == use.Block() {
			return false
		}
		work = append(work, b.Succs...)
	}
	return true
}

func index(instr ssa.Instruction) int {
	for i, x := range instr.Block().Instrs {
		if x == instr {
			return i
		}
	}
	return -1
}

// An entry is one entry put into a ByObject map.
type entry struct {
	update *ssa.MapUpdate
	object types.Type // nil when the key is not known here
	empty  bool       // a zero cache.ByObject{}
	// restricts: sets a namespace, a selector or a transform, or a value
	// not followed here.
	restricts bool
}

// entries returns the entries the package's code puts into ByObject maps.
func (p *pkg) entries() []entry {
	var out []entry
	for _, fn := range p.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				up, ok := instr.(*ssa.MapUpdate)
				if !ok || !kube.IsByObjectMap(up.Map.Type()) {
					continue
				}
				e := entry{update: up, object: kubessa.ObjectArg(up.Key)}
				e.empty, e.restricts = p.byObjectValue(up.Value)
				out = append(out, e)
			}
		}
	}
	return out
}

// byObjectValue reads a cache.ByObject value: whether it is the zero
// value, and whether it may restrict its kind.
func (p *pkg) byObjectValue(v ssa.Value) (empty, restricts bool) {
	if isZero(v) {
		return true, false
	}
	s := &scope{kinds: make(map[string]bool)}
	load, ok := flow.Origin(v, flow.Same).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false, true
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return false, true
	}
	set := false
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		f := ssax.FieldOfAddr(fa)
		if f == nil {
			return false, true
		}
		opt, _ := kube.CacheOptionOf(alloc.Type(), f.Name())
		p.eachWrite(s, fa, func(st *ssa.Store) {
			if isZero(st.Val) {
				return
			}
			set = true
			if opt == kube.OptionRestricts {
				s.all = true
			}
		}, nil)
	}
	return !set && !s.unknown && !s.all, s.all || s.unknown
}
