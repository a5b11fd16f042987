package handlerblocking

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PlanInformer is shaped on tofu-controller's branch planner
// (internal/informer/branch-planner/informer.go, Informer; the handler
// made a live Get in PR 1527): the handler struct is a field whose
// functions Start fills in, and updateHandler, holding the read lock,
// annotates the object with a controller-runtime Patch on the informer's
// delivery goroutine. Its Get through the manager's client reads the
// cache: silent.
type PlanInformer struct {
	informer cache.SharedIndexInformer
	handlers cache.ResourceEventHandlerFuncs
	client   client.Client
	mux      *sync.RWMutex
}

func (i *PlanInformer) Start(ctx context.Context) {
	if i.handlers.UpdateFunc == nil {
		i.handlers.UpdateFunc = i.updateHandler
	}
	i.informer.AddEventHandler(i.handlers)
	go i.informer.Run(ctx.Done())
}

func (i *PlanInformer) updateHandler(_, newObj any) {
	i.mux.RLock()
	defer i.mux.RUnlock()
	u, ok := newObj.(*unstructured.Unstructured)
	if !ok {
		return
	}
	cm := &corev1.ConfigMap{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, cm); err != nil {
		return
	}
	ctx := context.Background()
	var plan corev1.ConfigMap
	if err := i.client.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: "tfplan-" + cm.Name}, &plan); err != nil { // the cache
		return
	}
	_ = i.addErrorAnnotation(ctx, cm)
}

func (i *PlanInformer) addErrorAnnotation(ctx context.Context, cm *corev1.ConfigMap) error {
	patch := client.MergeFrom(cm.DeepCopy())
	cm.Annotations = map[string]string{"error-revision": cm.ResourceVersion}
	return i.client.Patch(ctx, cm, patch) // want `controller-runtime client Patch API call in the UpdateFunc handler \(via i.updateHandler → i.addErrorAnnotation\)`
}
