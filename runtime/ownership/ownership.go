// Package ownership sets controller references the way ctrllint's
// sharedowner analyzer asks: never on an object another owner controls,
// never across namespaces, never from a namespaced owner onto a
// cluster-scoped object — the cases the garbage collector treats as absent
// or resolves by deleting everybody's object.
package ownership

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// RefusedError says why a controller reference was not set.
type RefusedError struct {
	Owner, Child string
	Reason       string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("not setting %s as controller of %s: %s", e.Owner, e.Child, e.Reason)
}

// SetControllerReference makes owner the controller of child, or refuses:
//
//   - child is controlled by another owner (a shared object);
//   - owner is namespaced and child lives in another namespace (the garbage
//     collector treats the reference as absent and may delete the child);
//   - owner is namespaced and child has no namespace, that is, it is
//     cluster-scoped (the reference is unresolvable and the child is never
//     collected).
//
// A child already controlled by owner is left as it is.
func SetControllerReference(owner, child metav1.Object, gvk schema.GroupVersionKind) error {
	refuse := func(reason string) error {
		return &RefusedError{Owner: describe(owner), Child: describe(child), Reason: reason}
	}
	if ns := owner.GetNamespace(); ns != "" {
		switch child.GetNamespace() {
		case ns:
		case "":
			return refuse("a cluster-scoped object cannot have a namespaced owner")
		default:
			return refuse("owner references cannot cross namespaces")
		}
	}
	if ref := metav1.GetControllerOfNoCopy(child); ref != nil {
		if ref.UID == owner.GetUID() {
			return nil
		}
		return refuse("it is controlled by " + ref.Kind + " " + ref.Name)
	}
	child.SetOwnerReferences(append(child.GetOwnerReferences(), *metav1.NewControllerRef(owner, gvk)))
	return nil
}

// IsControlledBy reports whether owner is child's controller.
func IsControlledBy(child, owner metav1.Object) bool {
	ref := metav1.GetControllerOfNoCopy(child)
	return ref != nil && ref.UID == owner.GetUID()
}

func describe(o metav1.Object) string {
	if ns := o.GetNamespace(); ns != "" {
		return ns + "/" + o.GetName()
	}
	return o.GetName()
}
