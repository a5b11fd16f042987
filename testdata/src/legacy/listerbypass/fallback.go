package listerbypass

// Shaped on k8s.io/apiserver's ResourceQuota admission (v0.32.2
// pkg/admission/plugin/resourcequota/resource_access.go,
// quotaAccessor.GetQuotas): a live List whenever the lister finds no quota
// in the namespace. Fixed in v0.32.3 (kubernetes PR 130113) by making the
// live List only until the informer has synced.

import (
	"context"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	corev1listers "k8s.io/client-go/listers/core/v1"
)

type quotaAccessor struct {
	client    kubernetes.Interface
	lister    corev1listers.ResourceQuotaLister
	hasSynced func() bool

	mu   sync.Mutex
	live map[string][]*corev1.ResourceQuota
}

// once runs f for a namespace, as singleflight.Group's Do would.
func (e *quotaAccessor) once(ns string, f func() ([]*corev1.ResourceQuota, error)) ([]*corev1.ResourceQuota, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if items, ok := e.live[ns]; ok {
		return items, nil
	}
	items, err := f()
	if err == nil {
		e.live[ns] = items
	}
	return items, err
}

func (e *quotaAccessor) GetQuotas(namespace string) ([]corev1.ResourceQuota, error) {
	items, err := e.lister.ResourceQuotas(namespace).List(labels.Everything())
	if err != nil {
		return nil, fmt.Errorf("error resolving quota: %v", err)
	}
	if len(items) == 0 {
		items, err = e.once(namespace, func() ([]*corev1.ResourceQuota, error) {
			liveList, err := e.client.CoreV1().ResourceQuotas(namespace).List(context.TODO(), metav1.ListOptions{}) // want `clientset List of ResourceQuota runs whenever the ResourceQuota lister finds none`
			if err != nil {
				return nil, err
			}
			var out []*corev1.ResourceQuota
			for i := range liveList.Items {
				out = append(out, &liveList.Items[i])
			}
			return out, nil
		})
		if err != nil {
			return nil, err
		}
	}
	quotas := []corev1.ResourceQuota{}
	for _, q := range items {
		quotas = append(quotas, *q.DeepCopy())
	}
	return quotas, nil
}

// GetQuotasSynced is the fixed version: the live List only until the
// informer has synced. Silent.
func (e *quotaAccessor) GetQuotasSynced(namespace string) ([]*corev1.ResourceQuota, error) {
	items, err := e.lister.ResourceQuotas(namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	if len(items) == 0 && !e.hasSynced() {
		live, err := e.client.CoreV1().ResourceQuotas(namespace).List(context.TODO(), metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for i := range live.Items {
			items = append(items, &live.Items[i])
		}
	}
	return items, nil
}

// LimitRangesOrLive lists another resource live when the quota lister is
// empty: no fallback for what the lister holds. Silent.
func (e *quotaAccessor) LimitRangesOrLive(namespace string) (int, error) {
	items, err := e.lister.ResourceQuotas(namespace).List(labels.Everything())
	if err != nil {
		return 0, err
	}
	if len(items) != 0 {
		return len(items), nil
	}
	lrs, err := e.client.CoreV1().LimitRanges(namespace).List(context.TODO(), metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	return len(lrs.Items), nil
}

// QuotaCount returns early when the lister has quotas and lists live
// otherwise: the same fallback, written the other way round.
func (e *quotaAccessor) QuotaCount(namespace string) (int, error) {
	items, err := e.lister.ResourceQuotas(namespace).List(labels.Everything())
	if err != nil {
		return 0, err
	}
	if len(items) != 0 {
		return len(items), nil
	}
	live, err := e.client.CoreV1().ResourceQuotas(namespace).List(context.TODO(), metav1.ListOptions{}) // want `clientset List of ResourceQuota runs whenever the ResourceQuota lister finds none`
	if err != nil {
		return 0, err
	}
	return len(live.Items), nil
}
