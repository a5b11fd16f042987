package ownerkind

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// deployer: runs a deployer pod for each deployment (a
// ReplicationController) of a DeploymentConfig. Shaped on openshift/origin's
// pkg/deploy/controller/deployment (makeDeployerPod), whose deployer pods
// named the DeploymentConfig's kind while taking the ReplicationController's
// name and UID: the garbage collector found no such DeploymentConfig and
// deleted deployer pods mid-rollout (origin issue #13995, fixed in PR
// #13996 by naming the ReplicationController).

const deploymentConfigKind = "DeploymentConfig"

func makeDeployerPod(deployment *corev1.ReplicationController) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Name: deployment.Name + "-deploy",
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "apps.openshift.io/v1",
			Kind:       deploymentConfigKind, // want `owner reference names DeploymentConfig.apps.openshift.io but its owner deployment is a \*v1.ReplicationController \(ReplicationController\)`
			Name:       deployment.Name,
			UID:        deployment.UID,
		}},
	}}
}

// The fix: the ReplicationController's own kind and version.
func makeDeployerPodFixed(deployment *corev1.ReplicationController) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Name: deployment.Name + "-deploy",
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "v1",
			Kind:       "ReplicationController",
			Name:       deployment.Name,
			UID:        deployment.UID,
		}},
	}}
}
