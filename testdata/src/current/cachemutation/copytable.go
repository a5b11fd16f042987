package cachemutation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Shaped on kubernetes' EndpointSlice reconciler (pkg/controller/
// endpointslice/reconciler.go, reconcileByPortMapping). Up to v1.16 it
// wrote the slices syncService listed from the lister in place; v1.17
// (PR 85368) keeps them in a table by name, replaces the ones it changes
// with copies (epSlice := existingSlice.DeepCopy(); slicesByName[name] =
// epSlice) and later fills the slices marked for update, which are the
// copies. Pods stand in for EndpointSlices.

func (c *Controller) syncSlices(ns string) error {
	pods, err := c.podLister.Pods(ns).List(labels.Everything())
	if err != nil {
		return err
	}
	trimInPlace(pods) // want `an element of pods from c\.podLister\.Pods\(ns\)\.List is modified \(trimInPlace\(\.\.\.\), which does p\.Spec\.Containers = \.\.\. at copytable\.go:44\) without DeepCopy`
	return nil
}

func (c *Controller) syncSlicesByCopy(ns string) error {
	pods, err := c.podLister.Pods(ns).List(labels.Everything())
	if err != nil {
		return err
	}
	trimByCopy(pods)
	return nil
}

// trimInPlace is v1.16's shape.
func trimInPlace(existing []*corev1.Pod) {
	for _, p := range existing {
		kept := []corev1.Container{}
		for _, ct := range p.Spec.Containers {
			if ct.Image != "" {
				kept = append(kept, ct)
			}
		}
		if len(kept) != len(p.Spec.Containers) {
			p.Spec.Containers = kept
		}
	}
}

// trimByCopy is v1.17's: the table holds the cached pods and the copies
// that replace the ones it changes; what it writes later is a copy.
func trimByCopy(existing []*corev1.Pod) []*corev1.Pod {
	byName := map[string]*corev1.Pod{}
	toUpdate := map[string]bool{}
	for _, p := range existing {
		byName[p.Name] = p
		kept := []corev1.Container{}
		for _, ct := range p.Spec.Containers {
			if ct.Image != "" {
				kept = append(kept, ct)
			}
		}
		if len(kept) != len(p.Spec.Containers) {
			cp := p.DeepCopy()
			cp.Spec.Containers = kept
			byName[p.Name] = cp
			toUpdate[p.Name] = true
		}
	}
	var out []*corev1.Pod
	for name := range toUpdate {
		p := byName[name]
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "sidecar"})
		out = append(out, p)
	}
	return out
}
