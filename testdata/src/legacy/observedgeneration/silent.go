package observedgeneration

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// newCondition builds a condition without the object: its callers set
// it, and the literal is not where the object is (left out).
func newCondition(t string, status metav1.ConditionStatus, reason string) metav1.Condition {
	return metav1.Condition{Type: t, Status: status, Reason: reason}
}

func useNewCondition(obj *RemoteProxy) {
	meta.SetStatusCondition(&obj.Status.Conditions, newCondition(ConditionReady, metav1.ConditionTrue, ReasonDeploymentReady))
}

// legacyConditions are a project's own condition type: no
// ObservedGeneration to set.
func legacyConditions(m *Machine) {
	m.Status.Conditions = append(m.Status.Conditions, LegacyCondition{Type: "Ready", Status: metav1.ConditionTrue})
}

// probeStatus sets conditions on a struct that has no metadata.
func probeStatus(p *Probe) {
	meta.SetStatusCondition(&p.Status.Conditions, metav1.Condition{Type: "Reachable", Status: metav1.ConditionTrue, Reason: "Probed"})
}

// statusCopy sets conditions on a copy of the status, not on the object.
func statusCopy(obj *RemoteProxy) RemoteProxyStatus {
	st := obj.Status
	meta.SetStatusCondition(&st.Conditions, metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady})
	return st
}

// newProxy builds an object with a status: its generation is not known
// before it is created.
func newProxy(name string) *RemoteProxy {
	return &RemoteProxy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: RemoteProxyStatus{Conditions: []metav1.Condition{{
			Type: ConditionReady, Status: metav1.ConditionUnknown, Reason: "Created",
		}}},
	}
}

// pointerLiteral gives the condition its generation through a pointer.
func pointerLiteral(obj *RemoteProxy) {
	c := &metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady}
	c.ObservedGeneration = obj.Generation
	meta.SetStatusCondition(&obj.Status.Conditions, *c)
}

// withGeneration is handed the condition's address and sets it.
func withGeneration(c *metav1.Condition, gen int64) { c.ObservedGeneration = gen }

func addressHandedOn(obj *RemoteProxy) {
	c := metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady}
	withGeneration(&c, obj.Generation)
	meta.SetStatusCondition(&obj.Status.Conditions, c)
}

// stampingHelper gives the condition it is handed the object's
// generation before setting it: its callers' literals are complete.
func (r *RemoteProxyReconciler) stampingHelper(ctx context.Context, obj *RemoteProxy, c metav1.Condition) error {
	c.ObservedGeneration = obj.Generation
	meta.SetStatusCondition(&obj.Status.Conditions, c)
	return r.Status().Update(ctx, obj)
}

func (r *RemoteProxyReconciler) callsStampingHelper(ctx context.Context, obj *RemoteProxy) error {
	return r.stampingHelper(ctx, obj, metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady})
}

// capturedAndSet builds the condition in a variable that a closure
// completes.
func capturedAndSet(obj *RemoteProxy) {
	cond := metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady}
	stamp := func() { cond.ObservedGeneration = obj.Generation }
	stamp()
	meta.SetStatusCondition(&obj.Status.Conditions, cond)
}

// Bucket's conditions are stamped with the generation after they are
// set, in a loop over all of them.
type Bucket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status CacheStatus `json:"status,omitempty"`
}

func reconcileBucket(b *Bucket, err error) {
	if err != nil {
		meta.SetStatusCondition(&b.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Error", Message: err.Error()})
	} else {
		meta.SetStatusCondition(&b.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Synced"})
	}
	stampBucket(b)
}

func stampBucket(b *Bucket) {
	for i := range b.Status.Conditions {
		b.Status.Conditions[i].ObservedGeneration = b.Generation
	}
}

// otherGeneration sets a generation that is not the object's on purpose:
// any value but the constant 0 is the author's choice.
func otherGeneration(obj *RemoteProxy, child *RemoteProxy) {
	meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: "ChildReady", Status: metav1.ConditionTrue, Reason: "Ready", ObservedGeneration: child.Status.ObservedGeneration})
}

// logged is a condition that only goes to a log line.
func logged(obj *RemoteProxy) string {
	c := metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady}
	return c.Type + obj.Name
}

// serviceCondition sets a condition on a built-in kind: a Service's
// registry strategy leaves metadata.generation at 0 whatever the spec
// does, so 0 is the generation observed (shaped on kubernetes'
// storageversionmigrator, v1.37, whose StorageVersionMigration's strategy
// does the same).
func serviceCondition(svc *corev1.Service) {
	meta.SetStatusCondition(&svc.Status.Conditions, metav1.Condition{Type: "LoadBalancerReady", Status: metav1.ConditionTrue, Reason: "Provisioned"})
}
