package observedgeneration

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Conditions set in functions written on one line: the fix stays within
// the literal.
func readyCompact(obj *RemoteProxy) { meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: ReasonDeploymentReady}) } // want `condition "Ready" set on obj's status at line 10 has no ObservedGeneration`

func failCompact(obj *RemoteProxy) func(error) {
	return func(err error) { obj.Status.Conditions = append(obj.Status.Conditions, metav1.Condition{Type: ConditionReady, Status: metav1.ConditionFalse, Reason: "Error", Message: err.Error()}) } // want `condition "Ready" set on obj's status at line 13 has no ObservedGeneration`
}

func zeroCompact(obj *RemoteProxy) { meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: ConditionReady, ObservedGeneration: 0}) } // want `condition "Ready" set on obj's status at line 16 has no ObservedGeneration`
