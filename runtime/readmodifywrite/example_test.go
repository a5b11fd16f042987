package readmodifywrite_test

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/ctrllint/ctrllint/runtime/readmodifywrite"
)

// Another writer changes the ConfigMap between this controller's read and
// its write: the write conflicts, and Update reads the object again, applies
// the change to the fresh copy and writes that, keeping the other writer's
// change.
func ExampleUpdate() {
	client := fake.NewClientset(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "settings"}})
	// The fake clientset does not compare resourceVersions, so the other
	// writer and the conflict it causes are played by a reactor.
	otherWrote := false
	client.PrependReactor("update", "configmaps", func(action k8stesting.Action) (bool, runtime.Object, error) {
		if otherWrote {
			return false, nil, nil // the default reactor stores the write
		}
		otherWrote = true
		theirs := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "settings"},
			Data:       map[string]string{"owner": "someone else"},
		}
		if err := client.Tracker().Update(corev1.SchemeGroupVersion.WithResource("configmaps"), theirs, "default"); err != nil {
			return true, nil, err
		}
		return true, nil, apierrors.NewConflict(corev1.Resource("configmaps"), "settings", fmt.Errorf("the object has been modified"))
	})

	configMaps := client.CoreV1().ConfigMaps("default")
	reads := 0
	err := readmodifywrite.Update(context.Background(),
		func(ctx context.Context) (*corev1.ConfigMap, error) {
			reads++
			return configMaps.Get(ctx, "settings", metav1.GetOptions{})
		},
		func(cm *corev1.ConfigMap) (bool, error) {
			if cm.Data["mode"] == "on" {
				return false, nil // nothing to write
			}
			if cm.Data == nil {
				cm.Data = map[string]string{}
			}
			cm.Data["mode"] = "on"
			return true, nil
		},
		func(ctx context.Context, cm *corev1.ConfigMap) error {
			_, err := configMaps.Update(ctx, cm, metav1.UpdateOptions{})
			return err
		})
	if err != nil {
		fmt.Println(err)
		return
	}
	cm, err := configMaps.Get(context.Background(), "settings", metav1.GetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("reads:", reads)
	fmt.Println("data:", cm.Data)
	// Output:
	// reads: 2
	// data: map[mode:on owner:someone else]
}
