package rbacmarkers

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// A need is what one call needs the role to grant.
type need struct {
	call ast.Node
	what string // the call, for messages: "r.Create", "Owns"
	does string // what it does, for messages: "creates", "updates the status of"
	res  resource
	sub  string // the subresource: "", "status", "finalizers", ...
	// verbs are the verbs the call needs, all of them.
	verbs []string
	// orVerbs, for a read whose client may or may not read from the
	// cache, are what the other kind of read needs: the call is refused
	// only when neither set is granted.
	orVerbs []string
	// then is what happens without them; empty for the API server's
	// refusal of the call itself.
	then string
	// ifBypassed, for a read through the manager's cached client, is
	// what it needs when the module's manager setup may read some kinds
	// around the cache: decided only when the package's own markers do
	// not grant verbs, since it reads the whole module (module.go).
	ifBypassed *need
}

// resolve returns the need that applies: ifBypassed when the package's
// own markers do not grant n's verbs and the manager may bypass its
// cache.
func (c *checker) resolve(n need) need {
	alt := n.ifBypassed
	n.ifBypassed = nil
	if alt == nil || c.granted(n, n.verbs, false) || !c.cacheBypassed() {
		return n
	}
	return *alt
}

// What happens to a read or watch without its verbs.
const (
	thenCached = "the manager's client serves it from its cache, whose informer lists and watches: the informer cannot sync, and the read waits until its context ends"
	thenEither = "neither a read from the manager's cache (list and watch) nor one from the API server (get) is allowed"
	thenWatch  = "an informer lists and watches: this one cannot sync, and the controller fails to start"
)

// How a controller-runtime client reads.
type clientMode int

const (
	modeUnknown clientMode = iota
	// modeCached: the manager's client by its shape, a client.Client
	// field or embedded field, or mgr.GetClient(): its reads are served
	// by an informer, which lists and watches.
	modeCached
	// modeDirect: an API reader (mgr.GetAPIReader(), client.New, a
	// client.Reader field named for it): its reads go to the API server.
	modeDirect
)

// needsOf returns what a call needs, if it is one the analyzer knows: a
// controller-runtime client's or a typed clientset's read or write,
// controllerutil.CreateOrUpdate and CreateOrPatch, a watch that starts an
// informer (builder For, Owns, Watches, source.Kind, GetInformer), or
// SetControllerReference's blockOwnerDeletion.
func (c *checker) needsOf(call *ast.CallExpr) []need {
	info := c.pass.TypesInfo
	fn := callee(info, call)
	if fn == nil {
		if isAliasVar(info, call, "SetControllerReference") {
			return c.ownerNeeds(call) // ctrl.SetControllerReference
		}
		return nil
	}
	switch {
	case kube.IsCachedWatch(fn):
		return c.watchNeeds(call, fn)
	case kube.IsFunc(fn, kube.ControllerUtilPkg, "CreateOrUpdate"), kube.IsFunc(fn, kube.ControllerUtilPkg, "CreateOrPatch"):
		return c.createOrNeeds(call, fn)
	case kube.IsFunc(fn, kube.ControllerUtilPkg, "SetControllerReference"), kube.IsFunc(fn, kube.MetaV1Pkg, "NewControllerRef"):
		return c.ownerNeeds(call)
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if fn.Pkg() != nil && fn.Pkg().Path() == kube.CRClientPkg {
		return c.crClientNeeds(call, sel, fn)
	}
	if recv := info.TypeOf(sel.X); recv != nil && kube.IsTypedResourceClient(recv) {
		return c.typedNeeds(call, sel, fn, recv)
	}
	return nil
}

// crClientNeeds reads a controller-runtime client method call.
func (c *checker) crClientNeeds(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) []need {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return nil
	}
	_, recvName := kube.PathName(sig.Recv().Type())
	what := types.ExprString(sel)
	client := sel.X
	if recvName == "StatusWriter" || recvName == "SubResourceWriter" {
		// r.Status().Update: the client is r.
		inner, isCall := ast.Unparen(sel.X).(*ast.CallExpr)
		if !isCall {
			return nil
		}
		innerSel, isSel := ast.Unparen(inner.Fun).(*ast.SelectorExpr)
		if !isSel {
			return nil
		}
		client = innerSel.X
	}
	mode, ok := c.clientOf(client)
	if !ok {
		return nil
	}
	switch recvName {
	case "Reader":
		return c.readNeeds(call, fn, what, mode)
	case "Writer":
		verb, does := writeVerb(fn.Name())
		if verb == "" || len(call.Args) < 2 {
			return nil
		}
		res, ok := c.resourceOf(c.pass.TypesInfo.TypeOf(call.Args[1]), false)
		if !ok {
			return nil
		}
		return []need{{call: call, what: what, does: does, res: res, verbs: []string{verb}}}
	case "StatusWriter", "SubResourceWriter":
		sub, ok := c.subresourceOf(sel.X)
		if !ok || len(call.Args) < 2 {
			return nil
		}
		verb, does := writeVerb(fn.Name())
		if verb == "" || verb == "delete" || verb == "deletecollection" {
			return nil
		}
		res, ok := c.resourceOf(c.pass.TypesInfo.TypeOf(call.Args[1]), false)
		if !ok {
			return nil
		}
		return []need{{call: call, what: what, does: does + " the " + sub + " of", res: res, sub: sub, verbs: []string{verb}}}
	}
	return nil
}

// writeVerb is the RBAC verb of a client write method, and what it does.
func writeVerb(method string) (verb, does string) {
	switch method {
	case "Create":
		return "create", "creates"
	case "Update":
		return "update", "updates"
	case "Patch":
		return "patch", "patches"
	case "Delete":
		return "delete", "deletes"
	case "DeleteAllOf":
		return "deletecollection", "deletes a collection of"
	}
	return "", ""
}

// readNeeds reads a controller-runtime Get or List: through the manager's
// cache it needs list and watch (the informer), through an API reader get
// or list; through a client the analyzer cannot place, what either
// needs.
func (c *checker) readNeeds(call *ast.CallExpr, fn *types.Func, what string, mode clientMode) []need {
	var arg ast.Expr
	var list bool
	switch fn.Name() {
	case "Get":
		if len(call.Args) < 3 {
			return nil
		}
		arg = call.Args[2]
	case "List":
		if len(call.Args) < 2 {
			return nil
		}
		arg, list = call.Args[1], true
	default:
		return nil
	}
	res, ok := c.resourceOf(c.pass.TypesInfo.TypeOf(arg), list)
	if !ok {
		return nil
	}
	own := "get"
	does := "reads"
	if list {
		own, does = "list", "lists"
	}
	n := need{call: call, what: what, does: does, res: res}
	switch mode {
	case modeDirect:
		n.verbs = []string{own}
	case modeCached:
		// The manager may read this kind directly (ifBypassed): either way works.
		either := eitherRead(n, own, list)
		n.verbs = []string{"list", "watch"}
		n.then = thenCached
		n.ifBypassed = &either
	default:
		n = eitherRead(n, own, list)
	}
	return []need{n}
}

// eitherRead is what a read that may go to the cache or to the API
// server needs: list and watch, or own (get or list).
func eitherRead(n need, own string, list bool) need {
	n.verbs, n.orVerbs = []string{"list", "watch"}, []string{own}
	n.then = thenEither
	if list {
		// Both ways need list: that much is certain.
		n.verbs, n.orVerbs = []string{"list"}, nil
		n.then = ""
	}
	return n
}

// clientOf places the client a call goes through: ok is false unless it
// is, by its shape, one the manager hands out, whose requests the role
// controller-gen generates governs. A client in a local variable or a
// parameter may be any cluster's (cluster-api's workload cluster clients,
// from its ClusterCache), and so may a field named for another cluster
// (RemoteClient, GuestClient, HubClient): their calls are not checked.
//
//   - mgr.GetClient() on a manager: the cached client; mgr.GetAPIReader():
//     the API reader;
//   - a field holding a controller-runtime client: a client.Client (or a
//     struct embedding one) reads from the cache, a client.Reader named for
//     the API reader (kube.IsCRReaderField) from the API server, another
//     reader either way;
//   - a struct that embeds client.Client (a kubebuilder reconciler): the
//     cached client.
func (c *checker) clientOf(e ast.Expr) (mode clientMode, ok bool) {
	info := c.pass.TypesInfo
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.CallExpr:
		fn := callee(info, x)
		sel, isSel := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if fn == nil || !isSel || !isManager(info.TypeOf(sel.X)) {
			return modeUnknown, false
		}
		switch fn.Name() {
		case "GetClient":
			return modeCached, true
		case "GetAPIReader":
			return modeDirect, true
		}
		return modeUnknown, false
	case *ast.SelectorExpr:
		f, isField := info.Uses[x.Sel].(*types.Var)
		if !isField || !f.IsField() {
			return modeUnknown, false
		}
		if otherCluster(f.Name()) {
			return modeUnknown, false
		}
		switch path, name := kube.PathName(f.Type()); {
		case kube.IsCRReaderField(f):
			return modeDirect, true
		case path == kube.CRClientPkg && name == "Client" && types.IsInterface(f.Type()):
			return modeCached, true
		case path == kube.CRClientPkg && types.IsInterface(f.Type()):
			return modeUnknown, true // a Reader, Writer or WithWatch: the manager's, read either way
		case embedsClient(f.Type()):
			return modeCached, true
		}
		return modeUnknown, false
	case *ast.Ident:
		if v, isVar := info.Uses[x].(*types.Var); isVar && !otherCluster(v.Name()) && embedsClient(v.Type()) {
			return modeCached, true // the method's receiver, a reconciler
		}
	}
	return modeUnknown, false
}

// managerCache reports whether e is mgr.GetCache() on a manager.
func (c *checker) managerCache(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "GetCache" && isManager(c.pass.TypesInfo.TypeOf(sel.X))
}

// isManager reports whether t is controller-runtime's manager.Manager.
func isManager(t types.Type) bool {
	return t != nil && kube.Is(t, kube.CRManagerPkg, "Manager")
}

// otherCluster reports whether a field or variable is named for another
// cluster's client than the manager's.
func otherCluster(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"remote", "target", "guest", "workload", "tenant", "hub", "spoke", "member", "shoot", "seed", "cluster", "external", "foreign", "peer", "downstream", "upstream"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// embedsClient reports whether t is a struct (or pointer to one) that
// embeds client.Client: a kubebuilder reconciler, whose client is the
// manager's.
func embedsClient(t types.Type) bool {
	if types.IsInterface(t) {
		return false
	}
	n := kube.Named(t)
	if n == nil {
		return false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Embedded() && kube.Is(f.Type(), kube.CRClientPkg, "Client") {
			return true
		}
	}
	return false
}

// subresourceOf says which subresource a writer writes: "status" for
// Status(), the name given to SubResource(name) when a constant.
func (c *checker) subresourceOf(e ast.Expr) (string, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "", false
	}
	fn := callee(c.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kube.CRClientPkg {
		return "", false
	}
	switch fn.Name() {
	case "Status":
		return "status", true
	case "SubResource":
		if len(call.Args) == 1 {
			if s, ok := c.constString(call.Args[0]); ok && s != "" {
				return s, true
			}
		}
	}
	return "", false
}

func (c *checker) constString(e ast.Expr) (string, bool) {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// watchNeeds reads a watch that starts an informer: builder For, Owns and
// Watches (of an object; before v0.15 Watches took a source), source.Kind
// and a cache's GetInformer.
func (c *checker) watchNeeds(call *ast.CallExpr, fn *types.Func) []need {
	i := 0
	switch fn.Name() {
	case "Kind":
		// source.Kind(cache, obj): the manager's cache, not another
		// cluster's.
		if len(call.Args) < 2 || !c.managerCache(call.Args[0]) {
			return nil
		}
		i = 1
	case "GetInformer":
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || !c.managerCache(sel.X) {
			return nil
		}
		i = 1
	}
	if i >= len(call.Args) {
		return nil
	}
	res, ok := c.resourceOf(c.pass.TypesInfo.TypeOf(call.Args[i]), false)
	if !ok {
		return nil
	}
	return []need{{call: call, what: calledAs(call), does: "starts an informer on", res: res, verbs: []string{"list", "watch"},
		then: thenWatch}}
}

// sourceKindNeeds reads controller-runtime's &source.Kind{Type: obj}
// (before v0.15 a struct), which starts an informer.
func (c *checker) sourceKindNeeds(lit *ast.CompositeLit) []need {
	if !kube.Is(c.pass.TypesInfo.TypeOf(lit), kube.CRSourcePkg, "Kind") {
		return nil
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if key, ok := kv.Key.(*ast.Ident); !ok || key.Name != "Type" {
			continue
		}
		res, ok := c.resourceOf(c.pass.TypesInfo.TypeOf(kv.Value), false)
		if !ok {
			return nil
		}
		return []need{{call: lit, what: "source.Kind", does: "starts an informer on", res: res, verbs: []string{"list", "watch"},
			then: thenWatch}}
	}
	return nil
}

// createOrNeeds reads controllerutil.CreateOrUpdate(ctx, c, obj, f) and
// CreateOrPatch: a Get through the client, then a Create, or an Update
// (a Patch).
func (c *checker) createOrNeeds(call *ast.CallExpr, fn *types.Func) []need {
	if len(call.Args) < 3 {
		return nil
	}
	res, ok := c.resourceOf(c.pass.TypesInfo.TypeOf(call.Args[2]), false)
	if !ok {
		return nil
	}
	write := "update"
	if fn.Name() == "CreateOrPatch" {
		write = "patch"
	}
	what := calledAs(call)
	mode, ok := c.clientOf(call.Args[1])
	if !ok {
		return nil
	}
	read := need{call: call, what: what, does: "reads", res: res}
	switch mode {
	case modeDirect:
		read.verbs = []string{"get"}
	case modeCached:
		read.verbs = []string{"list", "watch"}
		read.then = thenCached
		bypassed := read
		bypassed.orVerbs = []string{"get"}
		read.ifBypassed = &bypassed
	default:
		read.verbs, read.orVerbs = []string{"list", "watch"}, []string{"get"}
		read.then = thenEither
	}
	return []need{
		read,
		{call: call, what: what, does: "creates", res: res, verbs: []string{"create"}},
		{call: call, what: what, does: write + "s", res: res, verbs: []string{write}},
	}
}

// ownerNeeds reads controllerutil.SetControllerReference(owner, obj,
// scheme) and metav1.NewControllerRef(owner, gvk), which set
// blockOwnerDeletion on the reference: on a cluster that runs the
// OwnerReferencesPermissionEnforcement admission plugin (OpenShift does),
// creating or updating an object with it needs update on the owner's
// finalizers subresource. With options (WithBlockOwnerDeletion) the
// analyzer does not know what SetControllerReference sets.
func (c *checker) ownerNeeds(call *ast.CallExpr) []need {
	if !c.opts.finalizers || len(call.Args) != 3 && len(call.Args) != 2 {
		return nil
	}
	res, ok := c.resourceOf(c.pass.TypesInfo.TypeOf(call.Args[0]), false)
	if !ok {
		return nil
	}
	return []need{{call: call, what: calledAs(call), does: "sets blockOwnerDeletion on its reference to", res: res,
		sub: "finalizers", verbs: []string{"update"},
		then: "a cluster that enforces OwnerReferencesPermissionEnforcement (OpenShift does) refuses to create or update the object with that reference"}}
}

// isAliasVar reports whether a call calls controller-runtime's
// package-level variable name (alias.go: ctrl.SetControllerReference =
// controllerutil.SetControllerReference).
func isAliasVar(info *types.Info, call *ast.CallExpr, name string) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	v, ok := info.Uses[sel.Sel].(*types.Var)
	return ok && !v.IsField() && v.Pkg() != nil && v.Pkg().Path() == kube.ControllerRtPkg
}

// typedNeeds reads a typed clientset call: its reads go to the API
// server.
func (c *checker) typedNeeds(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func, recv types.Type) []need {
	served := kube.ObjectOf(recv)
	if served == nil || !c.ownClientset(sel.X) {
		return nil
	}
	res, ok := c.resourceOf(served, false)
	if !ok {
		return nil
	}
	what := types.ExprString(sel)
	n := need{call: call, what: what, res: res}
	switch fn.Name() {
	case "Get":
		n.verbs, n.does = []string{"get"}, "reads"
	case "List":
		n.verbs, n.does = []string{"list"}, "lists"
	case "Watch":
		n.verbs, n.does = []string{"watch"}, "watches"
	case "UpdateStatus":
		n.verbs, n.does, n.sub = []string{"update"}, "updates the status of", "status"
	case "ApplyStatus":
		n.verbs, n.does, n.sub = []string{"patch"}, "applies the status of", "status"
	case "Apply":
		n.verbs, n.does = []string{"patch"}, "applies"
	case "DeleteCollection":
		n.verbs, n.does = []string{"deletecollection"}, "deletes a collection of"
	case "Patch":
		sub, ok := c.typedSubresource(call, fn)
		if !ok {
			return nil
		}
		n.verbs, n.does, n.sub = []string{"patch"}, "patches", sub
		if sub != "" {
			n.does = "patches the " + sub + " of"
		}
	default:
		verb, does := writeVerb(fn.Name())
		if verb == "" {
			return nil
		}
		n.verbs, n.does = []string{verb}, does
	}
	return []need{n}
}

// ownClientset reports whether a typed resource client comes, through a
// chain of calls (CoreV1().Pods(ns)), from a field not named for another
// cluster: the controller's own clientset. One in a local variable or a
// parameter may be any cluster's.
func (c *checker) ownClientset(e ast.Expr) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			e = x.Fun
		case *ast.SelectorExpr:
			if f, ok := c.pass.TypesInfo.Uses[x.Sel].(*types.Var); ok && f.IsField() {
				return !otherCluster(f.Name()) && kube.IsClientset(f.Type())
			}
			e = x.X
		default:
			return false
		}
	}
}

// typedSubresource reads the subresources a typed Patch names (its
// variadic last parameter): "" for none; ok is false for several or one
// not constant.
func (c *checker) typedSubresource(call *ast.CallExpr, fn *types.Func) (string, bool) {
	sig := fn.Type().(*types.Signature)
	if !sig.Variadic() || call.Ellipsis.IsValid() {
		return "", !sig.Variadic()
	}
	first := sig.Params().Len() - 1
	subs := call.Args[min(first, len(call.Args)):]
	switch len(subs) {
	case 0:
		return "", true
	case 1:
		return c.constString(subs[0])
	}
	return "", false
}

// calledAs is how the code names the called function: r.Create,
// controllerutil.CreateOrUpdate, Owns.
func calledAs(call *ast.CallExpr) string {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if _, ok := fun.X.(*ast.CallExpr); ok {
			return fun.Sel.Name // a chain: builder...Owns
		}
		return types.ExprString(fun)
	case *ast.IndexExpr:
		return calledAs(&ast.CallExpr{Fun: fun.X})
	case *ast.IndexListExpr:
		return calledAs(&ast.CallExpr{Fun: fun.X})
	}
	return types.ExprString(call.Fun)
}

// callee is the function or method a call statically names.
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[fun].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if s, ok := info.Selections[fun]; ok {
			if s.Kind() != types.MethodVal {
				return nil
			}
			fn, _ := s.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[fun.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr:
		return callee(info, &ast.CallExpr{Fun: fun.X})
	case *ast.IndexListExpr:
		return callee(info, &ast.CallExpr{Fun: fun.X})
	}
	return nil
}
