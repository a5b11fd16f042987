package cachesync

import (
	"context"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
)

// LateOnPurpose builds the controller after Start and says why in a
// directive.
func LateOnPurpose(ctx context.Context, client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	factory.Start(ctx.Done())
	c := NewController(factory.Apps().V1().Deployments()) //ctrllint:ignore cachesync a later Start, outside this function, runs the Deployment informer
	c.Run(ctx, 2)
}
