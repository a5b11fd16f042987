package observedgeneration

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A test seeds an object with conditions to compare with: not reported.
func TestSeed(t *testing.T) {
	obj := &RemoteProxy{}
	meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady})
	if !meta.IsStatusConditionTrue(obj.Status.Conditions, ConditionReady) {
		t.Fatal("not ready")
	}
}
