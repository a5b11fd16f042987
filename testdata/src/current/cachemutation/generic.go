package cachemutation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/listers"
	"k8s.io/client-go/tools/cache"
)

// configMapLister is a hand-written lister on v0.37's generic
// listers.ResourceIndexer[T], the way generated listers are built.
type configMapLister struct {
	listers.ResourceIndexer[*corev1.ConfigMap]
}

func newConfigMapLister(indexer cache.Indexer) configMapLister {
	return configMapLister{listers.New[*corev1.ConfigMap](indexer, corev1.Resource("configmaps"))}
}

type GenericController struct {
	configMaps configMapLister
	indexer    listers.ResourceIndexer[*corev1.ConfigMap]
}

func (c *GenericController) sync(name string) error {
	cm, err := c.configMaps.Get(name)
	if err != nil {
		return err
	}
	cm.Data["synced"] = "true" // want `cm from c\.configMaps\.Get is modified \(cm\.Data\[\.\.\.\] = \.\.\.\)`
	return nil
}

func (c *GenericController) all() error {
	cms, err := c.indexer.List(labels.Everything())
	if err != nil {
		return err
	}
	for _, cm := range cms {
		cm.BinaryData = nil // want `an element of cms from c\.indexer\.List is modified \(cm\.BinaryData = \.\.\.\)`
	}
	return nil
}
