package cachemutation

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic/dynamiclister"
)

// DynamicController reads unstructured objects from a dynamic informer's
// lister.
type DynamicController struct {
	lister dynamiclister.Lister
}

func (c *DynamicController) sync(ns, name string) error {
	u, err := c.lister.Namespace(ns).Get(name)
	if err != nil {
		return err
	}
	return unstructured.SetNestedField(u.Object, "v2", "spec", "version") // want `u from c\.lister\.Namespace\(ns\)\.Get is modified \(unstructured\.SetNestedField\(\.\.\.\)\)`
}

func (c *DynamicController) relabel() error {
	items, err := c.lister.List(labels.Everything())
	if err != nil {
		return err
	}
	for _, u := range items {
		u.SetLabels(nil) // want `an element of items from c\.lister\.List is modified \(u\.SetLabels\(\.\.\.\)\)`
	}
	return nil
}

// copied: silent.
func (c *DynamicController) copied(ns, name string) error {
	u, err := c.lister.Namespace(ns).Get(name)
	if err != nil {
		return err
	}
	u = u.DeepCopy()
	u.SetAnnotations(map[string]string{"a": "b"})
	return unstructured.SetNestedField(u.Object, "v2", "spec", "version")
}
