// Package patchutil patches objects for its callers, as
// external-snapshotter's utils package does.
package patchutil

import (
	"context"
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// PatchStatus replaces d's status through client.
func PatchStatus(d *appsv1.Deployment, status appsv1.DeploymentStatus, client kubernetes.Interface) (*appsv1.Deployment, error) {
	patch, err := json.Marshal(map[string]any{"status": status})
	if err != nil {
		return nil, err
	}
	return client.AppsV1().Deployments(d.Namespace).Patch(context.TODO(), d.Name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
}

// Describe only reads d.
func Describe(d *appsv1.Deployment) string { return d.Namespace + "/" + d.Name }
