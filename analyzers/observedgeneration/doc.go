// Package observedgeneration defines an Analyzer that reports status
// conditions set without the generation of the object they describe.
//
// # Analyzer observedgeneration
//
// observedgeneration: report metav1.Condition literals set on an object's status without ObservedGeneration, where the object is at hand
//
// A metav1.Condition carries ObservedGeneration, "the .metadata.generation
// that the condition was set based upon" (apimachinery's
// pkg/apis/meta/v1/types.go): a client that changes an object's spec waits
// until a condition's ObservedGeneration reaches the object's new
// generation before it trusts the condition's status, because until then
// the condition describes the old spec. A condition set without it has
// the field left out (it is omitempty) and reads 0 in a typed client,
// which is never current: Flagger (v1.42 and later) stalls a canary with
// "observed generation: 0, current generation: 1" (linkerd2 issue 14964),
// and the Gateway API's spec and conformance tests require the field on
// every route and gateway condition. (kubectl wait falls back to
// status.observedGeneration when a condition has none.)
// meta.SetStatusCondition copies ObservedGeneration from the condition it
// is given (pkg/api/meta/conditions.go, since apimachinery v0.20:
// kubernetes PR 95961), so a literal without the field also resets a
// generation set earlier to 0.
//
// The analyzer looks at every metav1.Condition composite literal outside
// _test.go files that does not give ObservedGeneration a value (or gives
// it the constant 0), and follows the literal's value forward within its
// function: through variables (a variable whose ObservedGeneration is
// assigned after the literal, or whose address is handed on, ends the
// search), φs, the arguments of append, []metav1.Condition literals and
// enclosing literals (a Gateway API RouteParentStatus), and package
// helpers that take the condition as a parameter. It reports the literal
// when the value is set in the status of an object whose generation can
// be read (a type with an embedded metav1.ObjectMeta that is not a
// built-in kind: a custom resource, whose generation the API server sets
// on create and increments on every change but metadata), with that
// object at hand in the same function:
//
//   - meta.SetStatusCondition(&obj.Status.Conditions, cond), also for
//     conditions deeper in the status (&route.Status.Parents[i].Conditions);
//   - obj.Status.Conditions = append(obj.Status.Conditions, cond), an
//     element store obj.Status.Conditions[i] = cond, obj.Status.Conditions
//     = []metav1.Condition{...}, obj.Status = FooStatus{Conditions: ...};
//   - a helper of the package called with the literal that does one of
//     these with the object (or &obj.Status.Conditions) it is handed
//     alongside: r.setCondition(obj, metav1.Condition{...}).
//
// The condition is reported whether or not the object's type has the
// status subresource (without it the API server increments
// metadata.generation on every change but metadata, and clients compare
// the two the same way), and whether or not the status also carries an
// observedGeneration of its own, which does not say which condition is
// current.
//
// # Wrong
//
//	meta.SetStatusCondition(&proxy.Status.Conditions, metav1.Condition{
//		Type:    "Ready",
//		Status:  metav1.ConditionTrue,
//		Reason:  "DeploymentReady",
//		Message: "Deployment is ready and running",
//	})
//
// # Right
//
//	meta.SetStatusCondition(&proxy.Status.Conditions, metav1.Condition{
//		Type:               "Ready",
//		Status:             metav1.ConditionTrue,
//		Reason:             "DeploymentReady",
//		Message:            "Deployment is ready and running",
//		ObservedGeneration: proxy.Generation,
//	})
//
// # Fix
//
// Set ObservedGeneration to the generation of the object whose status the
// condition is set in, as read when the reconcile began: the suggested
// fix adds `ObservedGeneration: X.Generation` to the literal (or puts it
// in place of a constant 0), X being the object as the code names it
// where the condition is set (proxy, r.obj, the argument handed to the
// helper). It writes the field, not X.GetGeneration(): the field is what
// every object type with an embedded ObjectMeta has, whether X is a
// pointer or a value, and what the projects that fixed this wrote. The fix
// is offered only when X is a variable or a field of one, is that same
// variable where the literal is written, and every place the literal
// reaches names it alike; otherwise the finding has no fix.
//
// # Suppress
//
//	meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Probed"}) //ctrllint:ignore observedgeneration the Ready condition is about the backend, not the spec; no client compares its generation
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - literals that set ObservedGeneration to anything but the constant 0
//     (the object's generation, a variable, another object's generation on
//     purpose), and conditions given it after the literal
//     (`c.ObservedGeneration = obj.Generation`, also in a helper the
//     condition is handed to, or through its address);
//   - object types whose conditions the package gives an
//     ObservedGeneration after they are set (a loop over
//     obj.Status.Conditions), and every condition of a package that
//     stamps conditions it does not trace to an object (a helper taking a
//     []metav1.Condition);
//   - condition types other than metav1.Condition: cluster-api's
//     clusterv1.Condition, corev1.PodCondition, a project's own Condition
//     struct, most of which have no ObservedGeneration field;
//   - conditions of built-in kinds (k8s.io/api, apiextensions,
//     apiregistration): whether their metadata.generation moves is each
//     kind's registry strategy's choice, and several whose status holds
//     metav1.Conditions leave it at 0 whatever their spec does (Service,
//     ServiceCIDR, StorageVersionMigration, PodCertificateRequest in
//     kubernetes v1.37; only a graceful deletion moves it), so 0 is the
//     generation their conditions observe;
//   - conditions in the status of types without an embedded ObjectMeta,
//     of unstructured objects, of a status copied out of the object
//     (`st := obj.Status.DeepCopy()`), and of an object being built in a
//     composite literal (its generation is not known before it is
//     created, and a status subresource drops the status on create);
//   - literals built in a helper that does not have the object, returned
//     to its caller (`meta.SetStatusCondition(&obj.Status.Conditions,
//     newCondition("Ready", ...))`): the helper cannot set the generation
//     and the caller builds no literal; nor conditions set through a
//     function of another package (cluster-api's conditions.Set, a
//     project's library), through an interface method or a func value,
//     collected in a slice that is then ranged over, or kept in a struct
//     variable's field before it reaches the status;
//   - an empty literal, metav1.Condition{}, whose fields are not set in
//     it: SSA folds it to a zero value, and a condition is built there
//     field by field, which the analyzer does not follow;
//   - conditions of an object that a function does not have at hand: a
//     helper handed the condition that fetches the object itself.
//   - code in _test.go files: tests build conditions to compare with and
//     to seed fake clients.
package observedgeneration

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
