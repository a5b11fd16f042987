package observedgeneration

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type CacheReconciler struct {
	client.Client
}

// Reconcile is shaped on kubebuilder's deploy-image scaffold
// (testdata/project-v4-with-plugins/internal/controller/memcached_controller.go),
// copied into many operators (kudu, unleash, perses, ...): the first
// condition written on one line, a later one over three lines ending on
// the last field's line.
func (r *CacheReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cache := &Cache{}
	if err := r.Get(ctx, req.NamespacedName, cache); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cache.Status == nil {
		cache.Status = &CacheStatus{}
	}
	if len(cache.Status.Conditions) == 0 {
		meta.SetStatusCondition(&cache.Status.Conditions, metav1.Condition{Type: "Available", Status: metav1.ConditionUnknown, Reason: "Reconciling", Message: "Starting reconciliation"}) // want `condition "Available" set on cache's status at line 31 has no ObservedGeneration`
		if err := r.Status().Update(ctx, cache); err != nil {
			return ctrl.Result{}, err
		}
	}
	meta.SetStatusCondition(&cache.Status.Conditions, metav1.Condition{Type: "Degraded", // want `condition "Degraded" set on cache's status at line 36 has no ObservedGeneration`
		Status: metav1.ConditionUnknown, Reason: "Finalizing",
		Message: fmt.Sprintf("Performing finalizer operations for the custom resource: %s ", cache.Name)})
	return ctrl.Result{}, r.Status().Update(ctx, cache)
}

// accept writes a Gateway API route's per-parent conditions: an appended
// RouteParentStatus whose conditions are a literal. Shaped on the route
// status writers of Gateway API implementations (apisix-ingress-controller
// issue 2767: observedGeneration 0 on every route parent row).
func accept(route *Route, parent string) {
	route.Status.Parents = append(route.Status.Parents, RouteParentStatus{
		ParentRef:      parent,
		ControllerName: "example.com/gateway",
		Conditions: []metav1.Condition{{ // want `condition "Accepted" set on route's status at line 47 has no ObservedGeneration`
			Type:   "Accepted",
			Status: metav1.ConditionTrue,
			Reason: "Accepted",
		}, {
			Type:               "ResolvedRefs",
			Status:             metav1.ConditionTrue,
			Reason:             "ResolvedRefs",
			ObservedGeneration: route.Generation,
		}},
	})
}

// resolve sets a condition of an existing parent row in place.
func resolve(route *Route, i int, err error) {
	if err != nil {
		meta.SetStatusCondition(&route.Status.Parents[i].Conditions, metav1.Condition{Type: "ResolvedRefs", Status: metav1.ConditionFalse, Reason: "BackendNotFound"}) // want `condition "ResolvedRefs" set on route's status at line 66 has no ObservedGeneration`
	}
}

// markReady appends a condition, and replaces one by index.
func markReady(obj *RemoteProxy, i int) {
	if i < 0 {
		obj.Status.Conditions = append(obj.Status.Conditions, metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady}) // want `condition "Ready" set on obj's status at line 73 has no ObservedGeneration`
		return
	}
	obj.Status.Conditions[i] = metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady} // want `condition "Ready" set on obj's status at line 76 has no ObservedGeneration`
}

// resetStatus replaces the whole status.
func resetStatus(obj *RemoteProxy) {
	obj.Status = RemoteProxyStatus{Phase: "Pending", Conditions: []metav1.Condition{{Type: ConditionReady, Status: metav1.ConditionUnknown, Reason: "Pending"}}} // want `condition "Ready" set on obj's status at line 81 has no ObservedGeneration`
}

// setCondition is a helper that sets a condition it is handed on the
// object it is handed: the literal, and the object, are the caller's.
func (r *RemoteProxyReconciler) setCondition(ctx context.Context, obj *RemoteProxy, cond metav1.Condition) error {
	meta.SetStatusCondition(&obj.Status.Conditions, cond)
	return r.Status().Update(ctx, obj)
}

// setConditions is a helper handed the conditions' place.
func setConditions(conds *[]metav1.Condition, cond metav1.Condition) {
	meta.SetStatusCondition(conds, cond)
}

// degrade hands its literals to the helpers.
func (r *RemoteProxyReconciler) degrade(ctx context.Context, proxy *RemoteProxy) error {
	setConditions(&proxy.Status.Conditions, metav1.Condition{Type: "Degraded", Status: metav1.ConditionTrue, Reason: "Probe"})       // want `condition "Degraded" set on proxy's status at line 98 \(by setConditions\) has no ObservedGeneration`
	return r.setCondition(ctx, proxy, metav1.Condition{Type: ConditionReady, Status: metav1.ConditionFalse, Reason: ReasonNotReady}) // want `condition "Ready" set on proxy's status at line 99 \(by setCondition\) has no ObservedGeneration`
}

// branches builds the condition in a variable on two paths.
func branches(obj *RemoteProxy, ok bool) {
	var cond metav1.Condition
	if ok {
		cond = metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady} // want `condition "Ready" set on obj's status at line 110 has no ObservedGeneration`
	} else {
		cond = metav1.Condition{Type: ConditionReady, Status: metav1.ConditionFalse, Reason: ReasonNotReady, ObservedGeneration: obj.Generation}
	}
	meta.SetStatusCondition(&obj.Status.Conditions, cond)
}

// inClosure sets a condition from a closure that captures the object.
func inClosure(obj *RemoteProxy, steps []func() error) {
	fail := func(err error) {
		meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: ConditionReady, Status: metav1.ConditionFalse, Reason: "StepFailed", Message: err.Error()}) // want `condition "Ready" set on obj's status at line 116 has no ObservedGeneration`
	}
	for _, step := range steps {
		if err := step(); err != nil {
			fail(err)
			return
		}
	}
}

func (in *Route) DeepCopyObject() runtimeObject { return in }
