// Package unwatched defines an Analyzer that reports children a
// controller-runtime controller creates but never watches, and event
// filters that hide the changes of watched children it waits for.
//
// # Analyzer unwatched
//
// unwatched: report children a controller creates with a controller reference but never Owns or Watches, and builder-wide event filters that hide their status changes
//
// A controller-runtime controller hears only of the kinds its builder
// names: For, Owns and Watches each start an informer and map its events
// to Reconcile requests. A reconciler that creates a Deployment, sets its
// controller reference and never says Owns(&appsv1.Deployment{}) is not
// told when someone deletes or edits that Deployment: the child stays
// gone or drifted until something else touches the parent, or until the
// manager's resync (ten hours by default). The same silence follows a
// builder-wide WithEventFilter(predicate.GenerationChangedPredicate{}):
// the predicate applies to every watch, Owns included, and a child's
// status change (a Deployment becoming available) does not move its
// generation, so a reconciler that waits for that status to report
// readiness waits until the next unrelated event.
//
// The analyzer looks at each package that builds a controller with
// controller-runtime's builder (ctrl.NewControllerManagedBy(mgr) ...
// Complete(r) or Build(r), as one chain or through a variable). It reports:
//
//   - a controllerutil.SetControllerReference (or ctrl.SetControllerReference)
//     whose owner is of a kind one of the package's controllers
//     reconciles (For), whose child is of a typed kind no controller of the
//     package names in For, Owns, Watches, WatchesMetadata or a
//     WatchesRawSource of source.Kind, when the package also creates,
//     updates or patches objects of the child's kind (client Create,
//     Update, Patch, controllerutil.CreateOrUpdate, CreateOrPatch);
//   - a WithEventFilter whose predicate passes no status-only change
//     (GenerationChangedPredicate, LabelChangedPredicate,
//     AnnotationChangedPredicate, an Or of only these, an And of one of
//     them), on a controller that Owns or Watches a kind, other than its
//     For kind, whose Status field the package's code reads.
//
// # Wrong
//
//	func (r *AppReconciler) SetupWithManager(mgr ctrl.Manager) error {
//		return ctrl.NewControllerManagedBy(mgr).
//			For(&appv1.App{}).
//			Complete(r) // the Deployments it creates below are never watched
//	}
//
//	if err := ctrl.SetControllerReference(app, dep, r.Scheme); err != nil {
//		return ctrl.Result{}, err
//	}
//	return ctrl.Result{}, r.Create(ctx, dep)
//
// # Right
//
//	return ctrl.NewControllerManagedBy(mgr).
//		For(&appv1.App{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
//		Owns(&appsv1.Deployment{}).
//		Complete(r)
//
// # Fix
//
// Add Owns(&K{}) for each kind the controller creates with a controller
// reference: controller-runtime then maps the child's events to its
// owner's Reconcile (handler.EnqueueRequestForOwner with
// OnlyControllerOwner). A child watched on purpose through another kind's
// events needs a Watches of its own kind with a handler mapping it to the
// owner. Move a GenerationChangedPredicate meant for the primary kind from
// WithEventFilter to For(..., builder.WithPredicates(...)), where it
// filters the primary's events only. No fix is suggested: where the
// builder is written and whether the kind's events need a predicate of
// their own is the author's choice.
//
// # Suppress
//
//	ctrl.SetControllerReference(app, job, r.Scheme) //ctrllint:ignore unwatched the Job runs once; only garbage collection needs the reference
//
// A reason is required; see docs/README.md for file-wide suppression.
//
// # Not reported
//
//   - packages with no builder chain that ends in Complete or Build (the
//     controller is set up elsewhere, often in main: what it watches is
//     not known here), and any package one of whose builder calls names
//     an object the analysis cannot tell (an interface value, an
//     unstructured.Unstructured or PartialObjectMetadata watch, a source
//     built in another function): it may watch the child's kind;
//   - controllers whose reconciler ends Reconcile by asking to run again
//     (`return ctrl.Result{RequeueAfter: d}, nil` as its last statement):
//     every object is reconciled again after d, and a deleted child comes
//     back then; and builders handed to another call, which may add
//     watches (a batch scheduler's ConfigureReconciler(b));
//   - children whose kind is watched by any controller of the package,
//     even one reconciling another kind (several controllers in one
//     package are not told apart); children of owners that are not a For
//     kind of the package (owned by another controller); owners or
//     children held in interface values (client.Object) or unstructured;
//     SetOwnerReference (a reference that is not a controller's, which
//     Owns does not map either), and controller references set in
//     another package's helpers;
//   - children the package never writes through controller-runtime's
//     client (built for another writer), and children of a kind whose
//     controller reference the package also removes
//     (controllerutil.RemoveControllerReference): the reference is a
//     placeholder until the child is handed to another owner, to which an
//     Owns would not map its events (kueue's provisioning controller and
//     its PodTemplates);
//   - predicates given to one watch (Owns(&K{}, builder.WithPredicates(...)):
//     chosen for that kind), custom predicates and predicate funcs, and a
//     builder-wide filter when the package reads the status of no
//     watched kind other than the For kind, or reads it only through
//     unstructured content;
//   - code in _test.go files.
package unwatched

import _ "embed"

//go:embed doc.go
var DocSource string
