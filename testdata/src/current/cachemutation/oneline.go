package cachemutation

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// syncCompact reads, checks and changes on one line each, as compact
// syncs do: the fix's copy goes between two statements of one line.
func (c *Controller) syncCompact(ctx context.Context, ns, name string) error {
	rs, err := c.rsLister.ReplicaSets(ns).Get(name); if err != nil { return err }
	if rs.Annotations == nil { rs.Annotations = map[string]string{} }; rs.Annotations["synced"] = "true" // want `rs from c\.rsLister\.ReplicaSets\(ns\)\.Get is modified`
	_, err = c.kubeclientset.AppsV1().ReplicaSets(ns).Update(ctx, rs, metav1.UpdateOptions{})
	return err
}
