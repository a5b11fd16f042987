package listerbypass

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/eventpath"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
	"github.com/ctrllint/ctrllint/analyzers/internal/kubessa"
	"github.com/ctrllint/ctrllint/analyzers/internal/ssax"
)

// readKind says through which client a read goes to the API server.
type readKind int

const (
	typedRead   readKind = iota // a typed clientset
	dynamicRead                 // the dynamic client
	apiRead                     // controller-runtime's API reader or an uncached client
)

// A read is a Get or List that goes to the API server.
type read struct {
	call   ssa.CallInstruction
	kind   readKind
	method string
	object types.Type // the object type (nil for dynamicRead)
	key    string     // object key, or the GVR key for dynamicRead
	// A read made inside a helper of another package (summary.go): the
	// call is the helper's, object is nil and these say what it reads.
	kindName string // the object's kind
	at       string // where the helper reads: "file.go:12"
	via      string // the helper: "nodeutil.GetPodsOnNode"
}

// kindOf is the kind of object the read returns.
func (r read) kindOf() string {
	if r.object == nil {
		return r.kindName
	}
	return kube.Kind(r.object)
}

// readOf recognises a read; ok is false for anything else.
func readOf(instr ssa.Instruction, c *caches) (read, bool) {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return read{}, false
	}
	common := call.Common()
	if !common.IsInvoke() {
		return read{}, false // every client here is an interface
	}
	method := common.Method.Name()
	if method != "Get" && method != "List" {
		return read{}, false
	}
	recv := common.Value
	switch t := recv.Type(); {
	case kube.IsTypedResourceClient(t):
		obj := kube.ObjectOf(t)
		if obj == nil {
			return read{}, false
		}
		return read{call: call, kind: typedRead, method: method, object: obj, key: kube.ObjectKey(obj)}, true
	case kube.IsDynamicResourceClient(t):
		if k := gvrKey(resourceArg(recv)); k != "" {
			return read{call: call, kind: dynamicRead, method: method, key: k}, true
		}
	case kube.IsCRReader(t):
		if !kubessa.FromAPIReader(recv) && !c.apiReaders[ssax.LoadedField(recv)] {
			return read{}, false // the manager's cached client
		}
		i := 2 // Get(ctx, key, obj)
		if method == "List" {
			i = 1 // List(ctx, list)
		}
		if i < len(common.Args) {
			if obj := objectArg(common.Args[i]); obj != nil {
				return read{call: call, kind: apiRead, method: method, object: obj, key: kube.ObjectKey(obj)}, true
			}
		}
	}
	return read{}, false
}

// resourceArg finds the GVR a dynamic resource client was made for:
// dyn.Resource(gvr) or dyn.Resource(gvr).Namespace(ns).
func resourceArg(v ssa.Value) ssa.Value {
	for range 3 {
		call, ok := v.(*ssa.Call)
		if !ok || !call.Common().IsInvoke() {
			return nil
		}
		switch call.Common().Method.Name() {
		case "Namespace":
			v = call.Common().Value
		case "Resource":
			if len(call.Common().Args) == 1 {
				return call.Common().Args[0]
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

// cached reports whether the package keeps the read's resource in an
// informer cache.
func (c *caches) cached(r read) bool {
	switch r.kind {
	case typedRead:
		return len(c.fields[r.key]) > 0 || c.factory[r.key]
	case dynamicRead:
		return c.dynamic[r.key]
	case apiRead:
		return c.watched[r.key]
	}
	return false
}

// cachedFor reports whether the controllers in own keep the read's
// resource in a cache they can reach. A lister field of another controller
// type of the package does not count: that controller's informer may be
// filtered, or fed by another factory in another process, and this one has
// nothing to read through. Reads on the path of a root without a receiver
// type, and resources the package caches only through its informer
// factory, are measured against the package as a whole.
func (c *caches) cachedFor(r read, own eventpath.Owners, fn *ssa.Function) bool {
	fs := c.fields[r.key]
	if r.kind != typedRead || own[nil] || len(fs) == 0 {
		return c.cached(r)
	}
	return c.reachableField(fs, own, fn) != nil
}

// reachableField returns the first of fs that one of own, or fn's receiver,
// holds (in a field, or a structure of the package it holds), or nil.
func (c *caches) reachableField(fs []*types.Var, own eventpath.Owners, fn *ssa.Function) *types.Var {
	holders := make([]*types.TypeName, 0, len(own)+1)
	if o := eventpath.OwnerOf(fn); o != nil {
		holders = append(holders, o)
	}
	for o := range own {
		if o != nil {
			holders = append(holders, o)
		}
	}
	for _, f := range fs {
		for _, o := range holders {
			if c.holds(o)[f] {
				return f
			}
		}
	}
	return nil
}
