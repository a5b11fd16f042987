package readmodifywrite_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/ctrllint/ctrllint/runtime/readmodifywrite"
)

// TestUpdateRetriesConflicts: two conflicting writers later, the update
// lands on a freshly read object.
func TestUpdateRetriesConflicts(t *testing.T) {
	client := fake.NewClientset(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm"}})
	conflicts := 2
	client.PrependReactor("update", "configmaps", func(k8stesting.Action) (bool, runtime.Object, error) {
		if conflicts > 0 {
			conflicts--
			return true, nil, apierrors.NewConflict(corev1.Resource("configmaps"), "cm", nil)
		}
		return false, nil, nil
	})
	cms := client.CoreV1().ConfigMaps("ns")
	reads := 0
	err := readmodifywrite.Update(context.Background(),
		func(ctx context.Context) (*corev1.ConfigMap, error) {
			reads++
			return cms.Get(ctx, "cm", metav1.GetOptions{})
		},
		func(cm *corev1.ConfigMap) (bool, error) { cm.Data = map[string]string{"k": "v"}; return true, nil },
		func(ctx context.Context, cm *corev1.ConfigMap) error {
			_, err := cms.Update(ctx, cm, metav1.UpdateOptions{})
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	if reads != 3 {
		t.Errorf("read %d times, want a fresh read per attempt (3)", reads)
	}
	got, _ := cms.Get(context.Background(), "cm", metav1.GetOptions{})
	if got.Data["k"] != "v" {
		t.Error("the update did not land")
	}
	// Nothing to change: no write at all.
	wrote := false
	err = readmodifywrite.Update(context.Background(),
		func(ctx context.Context) (*corev1.ConfigMap, error) { return cms.Get(ctx, "cm", metav1.GetOptions{}) },
		func(*corev1.ConfigMap) (bool, error) { return false, nil },
		func(context.Context, *corev1.ConfigMap) error { wrote = true; return nil })
	if err != nil || wrote {
		t.Errorf("unchanged object: err %v, wrote %v", err, wrote)
	}
}
