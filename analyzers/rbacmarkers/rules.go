package rbacmarkers

import (
	"slices"
	"strings"
)

// grants reports whether a rule grants verb on subresource sub ("" for the
// resource itself) of r, as the RBAC authorizer matches a request: the
// group or "*"; the resource, "resource/sub", "*" (everything, also
// subresources) or "*/sub"; the verb or "*". A rule limited to resource
// names grants what it names, whatever the call's object is called: the
// analyzer does not know the names.
func (ru rule) grants(r resource, sub, verb string) bool {
	if !slices.Contains(ru.groups, r.group) && !slices.Contains(ru.groups, "*") {
		return false
	}
	if !slices.Contains(ru.verbs, verb) && !slices.Contains(ru.verbs, "*") {
		return false
	}
	for _, res := range ru.resources {
		if res == "*" {
			return true
		}
		name, s, _ := strings.Cut(res, "/")
		if s != sub {
			continue
		}
		if name == "*" && sub != "" || r.names(name) {
			return true
		}
	}
	return false
}

// verbOrder is the order verbs are written in, kubebuilder's.
var verbOrder = []string{"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"}

// sortVerbs sorts verbs in verbOrder, others after them.
func sortVerbs(verbs []string) {
	rank := func(v string) int {
		if i := slices.Index(verbOrder, v); i >= 0 {
			return i
		}
		return len(verbOrder)
	}
	slices.SortStableFunc(verbs, func(a, b string) int { return rank(a) - rank(b) })
}
